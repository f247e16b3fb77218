// @ts-check
// The rules pages' texts, per language and game: short sections (goal, a turn, the end)
// and the rulings a newcomer meets, with their ids (RULINGS.md). Facts and figures from
// the rule books in the project's rules folder; the two languages say the same things.
//   RULES[lang][game] = { sections: [[heading, [paragraph, ...]], ...], rulings: [[id, text], ...] }

export const RULES = {
  en: {
    tyrus: {
      sections: [
        ["Goal", [
          "Two players fight nine elections. Win three elections in a row, or five in all, and you win at once; otherwise, after the ninth election, whoever won more elections wins.",
        ]],
        ["What you have", [
          "Each player owns three buildings: a citadel (soldiers vote there), a market (merchants) and a temple (priests). Each has 30 tiles: soldiers, merchants and priests valued 1 to 10, 9 of them in hand at the start.",
        ]],
        ["An election", [
          "An election card is turned: citadel, market or temple. Taking turns, each player places 3 tiles, one at a time, face down, in any of the six buildings, their own or the rival's. A placed tile never moves; a tile in another kind of building waits for a later election.",
          "Then the tiles of the two buildings of that kind are turned over and counted. In your own building, your tiles of the elected profession vote (their values add up). The rival's tiles of the profession that blocks it take votes away, unless your tiles of the profession that blocks the blocker counter them: merchant blocks soldier, soldier blocks priest, priest blocks merchant.",
          "The higher score wins the election; equal scores make it null. The counted tiles are discarded, the others stay. Each player draws 3 tiles while the reserve lasts.",
        ]],
        ["Example (from the book)", [
          "Citadels: Brown has soldiers 10 and 8; Beige put merchants worth 7 there: Brown scores 18 − 7 = 11. Beige has soldiers 7 and 5; Brown put merchants worth 8 there but Beige's priests worth 6 counter 6 of it: Beige scores 12 − 2 = 10. Brown wins.",
        ]],
        ["How it ends", [
          "Three elections won in a row (no null election between) or five won end the game at once. After nine elections, more elections won wins; if equal, the higher total of the three tiles left in hand; if still equal, a draw.",
        ]],
      ],
      rulings: [
        ["T4", "No limit per building; a placed tile never moves again."],
        ["T5", "Score = max(0, votes − max(0, blocks − counters)); nothing else in the building counts."],
        ["T6", "A null election (zero to zero included) breaks a streak."],
        ["T7", "No draw before elections 8 and 9: everyone ends with three tiles."],
        ["T9", "You see your own tiles, how many tiles the rival has where, and every counted tile."],
      ],
    },
    djambi: {
      sections: [
        ["Goal", [
          "Four parties fight for power on a 9×9 board. Be the last player whose Chief is alive. The middle square, e5, is the centre: the Power.",
        ]],
        ["The pieces", [
          "Each army starts in a corner: Chief (C), Assassin (A), Reporter (R), Diplomat (D), Necromobile (N) and four Militants (M). Turns go clockwise: red a1, green a9, yellow i9, blue i1.",
          "Every piece moves in a straight line, in any of the 8 directions, over empty squares, as far as it likes; Militants move 1 or 2 squares. No piece jumps. Any piece may cross the empty centre; only a Chief may stay there.",
        ]],
        ["Killing and moving others", [
          "Chief and Militant kill by moving onto an enemy, then put the corpse on any empty square. The Assassin kills by moving onto an enemy; the corpse goes to the square the Assassin left. The Reporter moves to an empty square, then kills an enemy orthogonally next to it.",
          "The Diplomat moves onto a living piece of another colour and puts it on any empty square. The Necromobile moves onto a corpse and puts it on any empty square. Corpses stay on the board and block the way.",
        ]],
        ["Chiefs and the Power", [
          "A player whose Chief dies is out: the killer takes over all of their pieces. A Chief on the centre gives its player an extra turn after every turn of a colour they do not play, while three or more players remain. A Chief walled in by corpses, with no Necromobile to dig it out, dies.",
        ]],
        ["How it ends", [
          "The last Chief standing wins. After a number of full rounds without a death (40 by default), the player holding the centre wins; if nobody holds it, the survivors share a draw.",
        ]],
      ],
      rulings: [
        ["D3", "A Militant never kills a Chief that holds the centre; a killed Chief's corpse may be put on the centre."],
        ["D5", "The Reporter must kill if it can, and it also kills a Chief on the centre."],
        ["D8", "A conquered colour keeps its turn, played by its new owner with that colour's pieces."],
        ["D9", "The extra turns of the Power stop when only two players remain."],
        ["D10", "A walled-in Chief's pieces obey whoever holds the centre, only while they hold it."],
      ],
    },
    guildes: {
      sections: [
        ["Goal", [
          "Win the votes of the guilds of Portyl over three rounds of voting. Most votes after the third count wins; a tie shares the win.",
        ]],
        ["A round", [
          "Deal: 10 cards each with 3 players, 9 with 4, 7 with 5, 6 with 6. Drafting: everyone at once keeps one card of the hand they hold and passes the rest in the direction of the round's event card, until every card is kept.",
          "Placing: everyone at once chooses a kept card face down; all are revealed together. Repeat until 8 (3 players), 7 (4), 5 (5 or 6) cards are placed; the rest is discarded. Placed cards stay for the whole game.",
        ]],
        ["The count", [
          "After each round, for each guild, players are ranked by how many of its cards they have placed. In round 1 only the first place scores; in round 2 the first two; in round 3 the first three (Pêcheurs and Bourgeois two, Alchimistes four). Tied players share the values of the places they cover, rounded down. Each Milice card is worth 3 votes at every count.",
        ]],
      ],
      rulings: [
        ["G1", "With 3 players the Alchimistes and 3 Milice are removed."],
        ["G2", "Only some values are printed in the book; the others are reconstructed (table below)."],
        ["G3", "Drafting and placing are simultaneous: nothing is shown before everyone has chosen."],
        ["G4", "Counts are over the whole tableau, cards of earlier rounds included."],
        ["G6", "Without the events option, an event card only gives the direction of passing."],
      ],
    },
    tyros: {
      sections: [
        ["Goal", [
          "Phoenician merchants sail from Tyros. Score the most points with your cities and ships when the game ends. The map holds four neutral empires: orange, yellow, green, violet. Each player has 10 ships (2 start in Tyros) and 10 cities.",
        ]],
        ["A round", [
          "1. Trade cards are dealt: 12 each with 3 players, 10 with 4 (14 per colour and 4 jokers, which stand for any colour).",
          "2. Expansion: in turn, play a terrain tile whose cell touches an empire and put a marker of a neighbouring empire's colour there (two turns each with 3 players, and in the first round with 4). Tiles 31 and 32 also give Tyros a marker.",
          "3. Actions, one per turn, until everybody passes in a row: move a ship (one card of the destination's colour per cell entered by sea; at most 2 ships per cell); build a city where only you have ships (5 cards of the cell's colour, 4 with two ships; a ship goes home); build a ship at your city or in Tyros; trade with the bank; offer a trade to a player; or pass.",
          "4. Keep at most 3 cards; the first player moves left.",
        ]],
        ["How it ends", [
          "The game ends after the round in which someone plays their last tile. Empires are ranked by size: a city scores 12, 10, 9 or 8 by its empire's rank, a cell held by ships of one player alone 6, 5, 4 or 3. The first player with a city in every empire scores 7, and most cities in an empire score 7.",
        ]],
      ],
      rulings: [
        ["Y2", "The map is reconstructed from the book's examples: walls stand where cells touch by land only; Italy has two coasts."],
        ["Y3", "Tyros is a cell of the map; ships may stop there once it has a marker."],
        ["Y6", "A refused offer costs nothing; at most 3 offers per turn. Stopping at another player's city pays them a card."],
        ["Y8", "Empire ties are broken orange > yellow > green > violet; a game tie by the points scored in the largest empire."],
      ],
    },
  },
  fr: {
    tyrus: {
      sections: [
        ["But du jeu", [
          "Deux joueurs se disputent neuf élections. Remportez trois élections d'affilée, ou cinq en tout, et vous gagnez aussitôt ; sinon, après la neuvième élection, le joueur qui en a remporté le plus gagne.",
        ]],
        ["Le matériel", [
          "Chaque joueur possède trois bâtiments : une citadelle (les soldats y votent), un marché (les marchands) et un temple (les prêtres). Il a 30 tuiles : soldats, marchands et prêtres de valeur 1 à 10, dont 9 en main au départ.",
        ]],
        ["Une élection", [
          "On retourne une carte Élection : citadelle, marché ou temple. À tour de rôle, chaque joueur pose 3 tuiles, une à la fois, face cachée, dans n'importe lequel des six bâtiments, les siens ou ceux de l'adversaire. Une tuile posée ne bouge plus ; une tuile posée dans un autre type de bâtiment attend une élection future.",
          "Puis on dépouille les deux bâtiments du type élu. Dans votre propre bâtiment, vos tuiles de la profession élue votent (leurs valeurs s'additionnent). Les tuiles adverses de la profession qui la bloque retirent des voix, sauf si vos tuiles de la profession qui bloque le bloqueur les contrent : le marchand bloque le soldat, le soldat bloque le prêtre, le prêtre bloque le marchand.",
          "Le plus haut score remporte l'élection ; à égalité, elle est nulle. Les tuiles dépouillées sont défaussées, les autres restent. Chacun pioche 3 tuiles tant que sa réserve dure.",
        ]],
        ["Exemple (du livret)", [
          "Citadelles : Marron a des soldats 10 et 8 ; Beige y a posé des marchands valant 7 : Marron marque 18 − 7 = 11. Beige a des soldats 7 et 5 ; Marron y a posé des marchands valant 8 mais les prêtres de Beige, valant 6, en contrent 6 : Beige marque 12 − 2 = 10. Marron gagne.",
        ]],
        ["Fin de la partie", [
          "Trois élections gagnées d'affilée (sans élection nulle entre elles) ou cinq gagnées finissent la partie aussitôt. Après neuf élections, le plus d'élections gagnées l'emporte ; à égalité, le plus haut total des trois tuiles restées en main ; sinon, partie nulle.",
        ]],
      ],
      rulings: [
        ["T4", "Pas de limite par bâtiment ; une tuile posée ne bouge plus."],
        ["T5", "Score = max(0, votes − max(0, blocages − contres)) ; rien d'autre ne compte dans le bâtiment."],
        ["T6", "Une élection nulle (zéro à zéro compris) interrompt une série."],
        ["T7", "Pas de pioche avant les élections 8 et 9 : chacun finit avec trois tuiles."],
        ["T9", "Vous voyez vos tuiles, combien de tuiles l'adversaire a où, et chaque tuile dépouillée."],
      ],
    },
    djambi: {
      sections: [
        ["But du jeu", [
          "Quatre partis se disputent le pouvoir sur un damier de 9×9. Soyez le dernier joueur dont le Chef est vivant. La case du milieu, e5, est le centre : le Pouvoir.",
        ]],
        ["Les pièces", [
          "Chaque armée part d'un coin : Chef (C), Assassin (A), Reporter (R), Diplomate (D), Nécromobile (N) et quatre Militants (M). On joue dans le sens des aiguilles d'une montre : rouge a1, vert a9, jaune i9, bleu i1.",
          "Chaque pièce se déplace en ligne droite, dans les 8 directions, sur des cases vides, aussi loin qu'elle veut ; les Militants de 1 ou 2 cases. Aucune pièce ne saute. Toute pièce peut traverser le centre vide ; seul un Chef peut y rester.",
        ]],
        ["Tuer et déplacer", [
          "Le Chef et le Militant tuent en allant sur une pièce ennemie, puis posent le cadavre sur n'importe quelle case vide. L'Assassin tue en allant sur une pièce ennemie ; le cadavre va sur la case que l'Assassin a quittée. Le Reporter va sur une case vide, puis tue un ennemi orthogonalement voisin.",
          "Le Diplomate va sur une pièce vivante d'une autre couleur et la pose sur n'importe quelle case vide. Le Nécromobile va sur un cadavre et le pose sur n'importe quelle case vide. Les cadavres restent sur le damier et barrent le passage.",
        ]],
        ["Les Chefs et le Pouvoir", [
          "Un joueur dont le Chef meurt est éliminé : son meurtrier prend toutes ses pièces. Un Chef au centre donne à son joueur un tour de plus après chaque tour d'une couleur qu'il ne joue pas, tant qu'il reste trois joueurs ou plus. Un Chef emmuré par des cadavres, sans Nécromobile pour le dégager, meurt.",
        ]],
        ["Fin de la partie", [
          "Le dernier Chef vivant gagne. Après un nombre de tours complets sans mort (40 par défaut), le joueur qui tient le centre gagne ; si personne ne le tient, les survivants partagent la partie nulle.",
        ]],
      ],
      rulings: [
        ["D3", "Un Militant ne tue jamais un Chef qui tient le centre ; le cadavre d'un Chef peut être posé au centre."],
        ["D5", "Le Reporter doit tuer s'il le peut, et il tue aussi un Chef au centre."],
        ["D8", "Une couleur conquise garde son tour, joué par son nouveau maître avec les pièces de cette couleur."],
        ["D9", "Les tours de plus du Pouvoir cessent quand il ne reste que deux joueurs."],
        ["D10", "Les pièces d'un Chef emmuré obéissent à qui tient le centre, seulement tant qu'il le tient."],
      ],
    },
    guildes: {
      sections: [
        ["But du jeu", [
          "Gagnez les voix des guildes de Portyl en trois tours de scrutin. Le plus de voix après le troisième décompte gagne ; à égalité, la victoire est partagée.",
        ]],
        ["Un tour de scrutin", [
          "Distribution : 10 cartes chacun à 3 joueurs, 9 à 4, 7 à 5, 6 à 6. Sélection : tous ensemble, chacun garde une carte de la main qu'il tient et passe le reste dans le sens de la carte Événement du tour, jusqu'à ce que toutes les cartes soient gardées.",
          "Pose : tous ensemble, chacun choisit une carte gardée face cachée ; toutes sont révélées en même temps. On recommence jusqu'à 8 (3 joueurs), 7 (4), 5 (5 ou 6) cartes posées ; le reste est défaussé. Les cartes posées restent toute la partie.",
        ]],
        ["Le décompte", [
          "Après chaque tour, pour chaque guilde, on classe les joueurs selon le nombre de ses cartes qu'ils ont posées. Au tour 1, seule la première place marque ; au tour 2, les deux premières ; au tour 3, les trois premières (deux pour les Pêcheurs et les Bourgeois, quatre pour les Alchimistes). Les ex æquo se partagent les valeurs des places qu'ils couvrent, arrondi à l'inférieur. Chaque carte Milice vaut 3 voix à chaque décompte.",
        ]],
      ],
      rulings: [
        ["G1", "À 3 joueurs, on retire les Alchimistes et 3 Milice."],
        ["G2", "Le livret ne donne que certaines valeurs ; les autres sont reconstituées (tableau ci-dessous)."],
        ["G3", "Sélection et pose sont simultanées : rien n'est montré avant que tous aient choisi."],
        ["G4", "Le décompte porte sur tout le tableau, cartes des tours précédents comprises."],
        ["G6", "Sans l'option événements, la carte Événement ne donne que le sens de passage."],
      ],
    },
    tyros: {
      sections: [
        ["But du jeu", [
          "Des marchands phéniciens partent de Tyros. Marquez le plus de points avec vos villes et vos bateaux à la fin de la partie. La carte porte quatre empires neutres : orange, jaune, vert, violet. Chaque joueur a 10 bateaux (2 au départ à Tyros) et 10 villes.",
        ]],
        ["Une manche", [
          "1. On distribue les cartes de commerce : 12 chacun à 3 joueurs, 10 à 4 (14 par couleur et 4 jokers, qui valent n'importe quelle couleur).",
          "2. Expansion : à tour de rôle, posez une tuile de terrain dont la case touche un empire et mettez-y un marqueur de la couleur d'un empire voisin (deux tours chacun à 3 joueurs, et à la première manche à 4). Les tuiles 31 et 32 donnent aussi un marqueur à Tyros.",
          "3. Actions, une par tour, jusqu'à ce que tous passent à la suite : déplacer un bateau (une carte de la couleur de l'arrivée par case franchie par mer ; 2 bateaux par case au plus) ; fonder une ville là où vous seul avez des bateaux (5 cartes de la couleur de la case, 4 avec deux bateaux ; un bateau rentre) ; construire un bateau à votre ville ou à Tyros ; échanger avec la banque ; proposer un échange à un joueur ; ou passer.",
          "4. Gardez au plus 3 cartes ; le premier joueur passe à gauche.",
        ]],
        ["Fin de la partie", [
          "La partie finit après la manche où quelqu'un pose sa dernière tuile. Les empires sont classés par taille : une ville rapporte 12, 10, 9 ou 8 selon le rang de son empire, une case tenue par les seuls bateaux d'un joueur 6, 5, 4 ou 3. Le premier à avoir une ville dans chaque empire marque 7, et le plus de villes dans un empire marque 7.",
        ]],
      ],
      rulings: [
        ["Y2", "La carte est reconstituée d'après les exemples du livret : un mur sépare les cases qui ne se touchent que par la terre ; l'Italie a deux côtes."],
        ["Y3", "Tyros est une case de la carte ; les bateaux peuvent s'y arrêter dès qu'elle a un marqueur."],
        ["Y6", "Une offre refusée ne coûte rien ; 3 offres au plus par tour. S'arrêter à la ville d'un autre joueur lui paie une carte."],
        ["Y8", "Entre empires, égalité départagée orange > jaune > vert > violet ; entre joueurs, par les points marqués dans le plus grand empire."],
      ],
    },
  },
};
