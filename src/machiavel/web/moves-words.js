// @ts-check
// The words of moves.js (what just happened, the ending, a Djambi player put out).
import { addWords } from "./i18n.js";

addWords({
  en: {
    "moves.since_turn": "Move {n} of {total} since your turn:",
    "moves.since_change": "Move {n} of {total} since the last change:",
    "moves.since_start": "Move {n} of {total} since the start:",
    "moves.your_last": "Your last move:",
    "moves.previous": "Previous move",
    "moves.next": "Next move",
    "moves.all": "Show them all",
    "moves.what_happened": "What just happened",
    "moves.events": "What followed",
    "moves.out_title": "You are out of the game",
    "moves.out_text": "Your Chief has fallen: you no longer play in this game. You may keep watching it to the end or go back to the lobby.",
    "moves.keep_watching": "Keep watching",
    "moves.out_watching": "You are out of the game and watching it.",
    "moves.why_it_ended": "Why it ended",
    "moves.final_hands": "Tiles left in hand:",
  },
  fr: {
    "moves.since_turn": "Coup {n} sur {total} depuis votre tour :",
    "moves.since_change": "Coup {n} sur {total} depuis le dernier changement :",
    "moves.since_start": "Coup {n} sur {total} depuis le début :",
    "moves.your_last": "Votre dernier coup :",
    "moves.previous": "Coup précédent",
    "moves.next": "Coup suivant",
    "moves.all": "Les voir tous",
    "moves.what_happened": "Ce qui vient de se passer",
    "moves.events": "Ce qui a suivi",
    "moves.out_title": "Vous êtes hors jeu",
    "moves.out_text": "Votre Chef est tombé : vous ne jouez plus dans cette partie. Vous pouvez la regarder jusqu'au bout ou revenir au salon.",
    "moves.keep_watching": "Continuer à regarder",
    "moves.out_watching": "Vous êtes hors jeu et regardez la partie.",
    "moves.why_it_ended": "Pourquoi la partie s'est terminée",
    "moves.final_hands": "Tuiles restées en main :",
  },
});
