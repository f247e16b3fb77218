"""The Tyros map (ruling Y2, reconstructed) and the sea-route finder used by the engine.

The map lives in ``map.json`` (marked as reconstructed) so that an owner of the printed
board can replace it. Cells are numbered as in the book: 1-32, plus Tyros (index 0 here)
and the open sea, which is never entered. A ship stands on a *node*: one per cell, except
Italy (16), which has one node per coast (Y2): ``16e`` and ``16w``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from machiavel.core.contract import JsonDict

TYROS = 0  # cell (and node) index of Tyros
CELL_COUNT = 33  # Tyros + cells 1..32


@dataclass(frozen=True)
class Board:
    """Everything static about the map, precomputed once."""

    cells_json: tuple[tuple[str, int, int, str], ...]  # (id, x, y, name) incl. open sea
    names: tuple[str, ...]  # by cell index
    positions: tuple[tuple[int, int], ...]  # (x, y) by cell index
    neighbours: tuple[tuple[int, ...], ...]  # land neighbours by cell index (Y2, Y3)
    node_cell: tuple[int, ...]  # cell index of each node
    node_token: tuple[str, ...]  # "16e", "16w", "tyros", "7" ...
    cell_nodes: tuple[tuple[int, ...], ...]  # nodes of each cell
    built_node: tuple[int, ...]  # node where a ship built in each cell stands (Y2: 16w)
    sea_links: tuple[tuple[int, ...], ...]  # sea joins between nodes
    sea_routes_json: tuple[tuple[str, str], ...]
    distance: tuple[tuple[int, ...], ...]  # cheapest route cost between nodes, -1: none


def cell_token(cell: int) -> str:
    return "tyros" if cell == TYROS else str(cell)


def _cell_index(token: str) -> int:
    if token == "tyros":
        return TYROS
    number = int(token)
    if not 1 <= number < CELL_COUNT:
        raise ValueError(f"map.json: unknown cell {token!r}")
    return number


def _load_json() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("map.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def build_board(data: dict[str, Any]) -> Board:
    """Derive neighbours, sea joins, coasts and the distance table from the map data."""
    open_sea = data["open_sea"]
    by_position: dict[tuple[int, int], int] = {}
    names = [""] * CELL_COUNT
    positions = [(0, 0)] * CELL_COUNT
    cells_json = []
    for cell in data["cells"]:
        cells_json.append((cell["id"], cell["x"], cell["y"], cell["name"]))
        if cell["id"] == open_sea:
            continue  # never entered, never a neighbour
        index = _cell_index(cell["id"])
        names[index] = cell["name"]
        positions[index] = (cell["x"], cell["y"])
        by_position[(cell["x"], cell["y"])] = index
    neighbours: list[list[int]] = [[] for _ in range(CELL_COUNT)]
    for (x, y), index in by_position.items():
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            other = by_position.get((x + dx, y + dy))
            if other is not None:
                neighbours[index].append(other)
    # Nodes: one per cell, one more per extra coast of a coasted cell (Italy).
    coasts: dict[int, dict[str, list[int]]] = {
        _cell_index(cell): {coast: [_cell_index(t) for t in joined] for coast, joined in c.items()}
        for cell, c in data.get("coasts", {}).items()
    }
    node_cell = list(range(CELL_COUNT))
    node_token = [cell_token(c) for c in range(CELL_COUNT)]
    cell_nodes: list[list[int]] = [[c] for c in range(CELL_COUNT)]
    coast_node: dict[tuple[int, str], int] = {}
    for cell, cell_coasts in sorted(coasts.items()):
        for number, coast in enumerate(sorted(cell_coasts)):
            node = cell if number == 0 else len(node_cell)
            if number:
                node_cell.append(cell)
                node_token.append("")
                cell_nodes[cell].append(node)
            node_token[node] = f"{cell_token(cell)}{coast}"
            coast_node[(cell, coast)] = node
    no_sea = {frozenset(_cell_index(t) for t in pair) for pair in data["no_sea_joins"]}
    links: list[set[int]] = [set() for _ in node_cell]
    for cell in range(CELL_COUNT):
        for other in neighbours[cell]:
            if frozenset((cell, other)) in no_sea:
                continue
            for a in _nodes_facing(cell, other, coasts, coast_node):
                for b in _nodes_facing(other, cell, coasts, coast_node):
                    links[a].add(b)
                    links[b].add(a)
    sea_links = tuple(tuple(sorted(s)) for s in links)
    built = list(range(CELL_COUNT))
    for cell, coast in data.get("built_ship_coast", {}).items():
        built[_cell_index(cell)] = coast_node[(_cell_index(cell), coast)]
    routes = sorted(
        {
            tuple(sorted((node_token[a], node_token[b]), key=_token_order))
            for a, linked in enumerate(sea_links)
            for b in linked
        },
        key=lambda pair: (_token_order(pair[0]), _token_order(pair[1])),
    )
    distance = tuple(tuple(_bfs(sea_links, source)) for source in range(len(node_cell)))
    return Board(
        cells_json=tuple(cells_json),
        names=tuple(names),
        positions=tuple(positions),
        neighbours=tuple(tuple(sorted(n)) for n in neighbours),
        node_cell=tuple(node_cell),
        node_token=tuple(node_token),
        cell_nodes=tuple(tuple(n) for n in cell_nodes),
        built_node=tuple(built),
        sea_links=sea_links,
        sea_routes_json=tuple((a, b) for a, b in routes),
        distance=distance,
    )


def _nodes_facing(
    cell: int,
    other: int,
    coasts: dict[int, dict[str, list[int]]],
    coast_node: dict[tuple[int, str], int],
) -> list[int]:
    """The nodes of ``cell`` joined by sea to neighbour ``other`` (Italy: by its coasts)."""
    cell_coasts = coasts.get(cell)
    if cell_coasts is None:
        return [cell]
    facing = [coast_node[(cell, c)] for c, joined in sorted(cell_coasts.items()) if other in joined]
    if not facing:
        raise ValueError(f"map.json: no coast of {cell} faces its sea neighbour {other}")
    return facing


def _token_order(token: str) -> tuple[int, str]:
    digits = token.rstrip("ew")
    return (0 if digits == "tyros" else int(digits), token)


def _bfs(links: tuple[tuple[int, ...], ...], source: int) -> list[int]:
    """Sea distances from ``source``: one card per cell entered (Y6)."""
    distance = [-1] * len(links)
    distance[source] = 0
    queue = deque([source])
    while queue:
        node = queue.popleft()
        for nxt in links[node]:
            if distance[nxt] < 0:
                distance[nxt] = distance[node] + 1
                queue.append(nxt)
    return distance


BOARD = build_board(_load_json())
NODE_COUNT = len(BOARD.node_cell)
NODE_BY_TOKEN = {token: node for node, token in enumerate(BOARD.node_token)}


def nodes_of(token: str) -> tuple[int, ...]:
    """Nodes meant by a token: a node token ("16e") or a cell token ("16": both coasts)."""
    node = NODE_BY_TOKEN.get(token)
    if node is not None and token.rstrip("ew") == token:
        return BOARD.cell_nodes[BOARD.node_cell[node]]
    if node is not None:
        return (node,)
    cell = {cell_token(c): c for c in range(CELL_COUNT)}.get(token)
    if cell is None:
        raise ValueError(f"{token!r} is not a cell of the map")
    return BOARD.cell_nodes[cell]


def route_cost(start: str, end: str) -> int | None:
    """Cheapest sea route cost between two cells or nodes (None: no route)."""
    costs = [BOARD.distance[a][b] for a in nodes_of(start) for b in nodes_of(end) if a != b]
    costs = [c for c in costs if c >= 0]
    return min(costs) if costs else None


def shortest_routes(start: str, end: str) -> list[list[str]]:
    """Every cheapest route as the list of cells it visits (Italy written "16")."""
    cost = route_cost(start, end)
    if cost is None:
        return []
    targets = set(nodes_of(end))
    found: set[tuple[str, ...]] = set()
    for source in nodes_of(start):
        distance = BOARD.distance[source]
        for target in targets:
            if distance[target] == cost:
                for path in _paths_back(source, target, distance):
                    found.add(tuple(cell_token(BOARD.node_cell[n]) for n in path))
    return [list(path) for path in sorted(found)]


def _paths_back(source: int, node: int, distance: tuple[int, ...]) -> Iterable[list[int]]:
    if node == source:
        yield [source]
        return
    for previous in BOARD.sea_links[node]:
        if distance[previous] == distance[node] - 1:
            for path in _paths_back(source, previous, distance):
                yield [*path, node]


def is_route(cells: list[str]) -> bool:
    """Whether a ship may sail through these cells in this order (coasts respected)."""
    current = set(nodes_of(cells[0]))
    for token in cells[1:]:
        current = {n for n in nodes_of(token) if any(n in BOARD.sea_links[c] for c in current)}
        if not current:
            return False
    return True


def map_view() -> JsonDict:
    """The map as every view carries it (fresh objects: callers may mutate views)."""
    return {
        "cells": [
            {"id": cid, "x": x, "y": y, "name": name} for cid, x, y, name in BOARD.cells_json
        ],
        "sea_routes": [[a, b] for a, b in BOARD.sea_routes_json],
    }
