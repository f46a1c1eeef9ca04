"""WitchDraft geometry: rotations, edge symbols and the placement rules."""

from __future__ import annotations

import random

import pytest

from engine.core.errors import IllegalActionError
from engine.witchdraft.cards import APPRENTICE_A, COMPANIONS, Ingredient, parse_card
from engine.witchdraft.geometry import (
    ROTATIONS,
    IllegalPlacement,
    Placement,
    PlayArea,
    cells,
    edge_symbols,
    horizontal,
)

D, F, R = Ingredient.DRAGON_SCALE, Ingredient.FLEA_GRASS, Ingredient.FIRE_ROOT

# Six distinct edges, so every edge's new position is unambiguous:
# A top=D, A left end=F, A bottom=R, B top=F, B right end=None, B bottom=D.
ODD = parse_card("odd", "Odd", None, None, "g-", "DFRF.D")


def start() -> PlayArea:
    return PlayArea.start(APPRENTICE_A.card_id)


def test_cells_follow_clockwise_rotation() -> None:
    assert cells(Placement(3, 4, 0)) == ((3, 4), (4, 4))
    assert cells(Placement(3, 4, 90)) == ((3, 4), (3, 5))
    assert cells(Placement(3, 4, 180)) == ((3, 4), (2, 4))
    assert cells(Placement(3, 4, 270)) == ((3, 4), (3, 3))
    assert [horizontal(Placement(0, 0, r)) for r in ROTATIONS] == [True, False, True, False]


def test_bad_rotation_is_rejected() -> None:
    with pytest.raises(ValueError):
        Placement(0, 0, 45)


def test_edge_symbols_at_rotation_0() -> None:
    assert edge_symbols(ODD, Placement(0, 0, 0)) == {
        ((0, 0), "N"): D, ((0, 0), "W"): F, ((0, 0), "S"): R,
        ((1, 0), "N"): F, ((1, 0), "S"): D,
    }


def test_edge_symbols_at_rotation_90() -> None:
    # Turning clockwise: top becomes east, the left end north, bottom west.
    assert edge_symbols(ODD, Placement(0, 0, 90)) == {
        ((0, 0), "E"): D, ((0, 0), "N"): F, ((0, 0), "W"): R,
        ((0, 1), "E"): F, ((0, 1), "W"): D,
    }


def test_rotation_180_swaps_the_halves_and_their_edges() -> None:
    p = Placement(1, 0, 180)
    assert cells(p) == ((1, 0), (0, 0))  # half A now on the right
    assert edge_symbols(ODD, p) == {
        ((1, 0), "S"): D, ((1, 0), "E"): F, ((1, 0), "N"): R,
        ((0, 0), "S"): F, ((0, 0), "N"): D,
    }
    # Same cells as rotation 0 at the origin, but a different face: the halves differ.
    assert set(cells(p)) == set(cells(Placement(0, 0, 0)))
    assert edge_symbols(ODD, p) != edge_symbols(ODD, Placement(0, 0, 0))


def test_edge_symbols_at_rotation_270() -> None:
    assert edge_symbols(ODD, Placement(0, 0, 270)) == {
        ((0, 0), "W"): D, ((0, 0), "S"): F, ((0, 0), "E"): R,
        ((0, -1), "W"): F, ((0, -1), "E"): D,
    }


def test_start_puts_the_apprentice_at_the_origin() -> None:
    area = start()
    assert area.occupied() == {(0, 0): (0, 0), (1, 0): (0, 1)}


def test_overlap_is_illegal() -> None:
    with pytest.raises(IllegalPlacement) as caught:
        start().check("x", Placement(1, 0, 90))
    assert caught.value.reason == "overlaps a card"
    assert isinstance(caught.value, IllegalActionError)


def test_a_card_must_touch_the_area() -> None:
    with pytest.raises(IllegalPlacement) as caught:
        start().check("x", Placement(3, 3, 90))
    assert caught.value.reason == "touches no card"
    # Touching only at a corner is not touching.
    assert not start().is_legal("x", Placement(2, 1, 90))


def test_a_card_must_be_perpendicular_to_a_card_it_touches() -> None:
    area = start()
    with pytest.raises(IllegalPlacement) as caught:
        area.check("x", Placement(0, 1, 0))  # parallel, right underneath
    assert caught.value.reason == "must be perpendicular to a card it touches"
    assert not area.is_legal("x", Placement(2, 0, 0))  # parallel, end to end
    assert area.is_legal("x", Placement(0, 1, 90))
    assert area.is_legal("x", Placement(2, 0, 270))


def test_perpendicular_to_one_touched_card_is_enough() -> None:
    area = start().with_card("a", Placement(2, 0, 90))  # vertical at (2,0),(2,1)
    # Horizontal under the apprentice: parallel to it, perpendicular to the vertical card.
    assert area.is_legal("b", Placement(0, 1, 180)) is False  # (0,1),(-1,1) touches only the apprentice
    assert area.is_legal("b", Placement(1, 1, 0)) is False  # would overlap (2,1)
    assert area.is_legal("b", Placement(0, 1, 0))  # (0,1),(1,1) touches both


def test_overlap_is_reported_before_the_other_rules() -> None:
    area = start()
    with pytest.raises(IllegalPlacement, match="overlaps a card"):
        area.check("x", Placement(0, 0, 0))


def test_with_card_returns_a_new_area_and_rejects_illegal_ones() -> None:
    area = start()
    bigger = area.with_card("x", Placement(0, 1, 90))
    assert len(area.cards) == 1 and len(bigger.cards) == 2
    assert bigger.occupied()[(0, 2)] == (1, 1)
    with pytest.raises(IllegalPlacement):
        bigger.with_card("y", Placement(5, 5, 0))


def brute_force(area: PlayArea) -> set[Placement]:
    xs = [x for x, _ in area.occupied()]
    ys = [y for _, y in area.occupied()]
    return {
        Placement(x, y, r)
        for x in range(min(xs) - 3, max(xs) + 4)
        for y in range(min(ys) - 3, max(ys) + 4)
        for r in ROTATIONS
        if area.is_legal("x", Placement(x, y, r))
    }


def random_area(seed: int, size: int) -> PlayArea:
    rng = random.Random(seed)
    area = start()
    for card in COMPANIONS[:size]:
        area = area.with_card(card.card_id, rng.choice(area.legal_placements(card.card_id)))
    return area


@pytest.mark.parametrize("seed", range(6))
def test_legal_placements_match_a_brute_force_search(seed: int) -> None:
    area = random_area(seed, 4)
    found = area.legal_placements("x")
    assert len(found) == len(set(found))
    assert set(found) == brute_force(area)
    assert found == area.legal_placements("y")  # deterministic
    for p in found:
        area.check("x", p)


def test_legal_placements_of_the_first_card() -> None:
    found = start().legal_placements("x")
    assert found and all(not horizontal(p) for p in found)
    assert set(found) == brute_force(start())


def test_json_round_trip() -> None:
    area = random_area(7, 6)
    data = area.to_json()
    assert all(isinstance(v, (int, str)) for item in data for v in item)
    assert PlayArea.from_json(data) == area


@pytest.mark.parametrize("data", [
    [],
    "nope",
    [["apprentice-a", 0, 0, 0], ["owl-1", 9, 9, 0]],
    [["apprentice-a", 1, 0, 0]],
    [["apprentice-a", 0, 0, 0], ["owl-1", 0, 1, 45]],
    [["apprentice-a", 0, 0, "0"]],
])
def test_from_json_rejects_bad_areas(data: object) -> None:
    with pytest.raises(ValueError):
        PlayArea.from_json(data)
