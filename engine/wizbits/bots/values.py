"""What effects, cards and payments are worth to the Normal bot, in cards (winning is :data:`WIN`).

Every figure is read from a :class:`~engine.wizbits.bots.heuristics.Board`,
that is from one seat's view, never from the game state.
"""

from __future__ import annotations

from dataclasses import replace

from engine.wizbits.bots.heuristics import (
    WIN,
    Board,
    card_of,
    check_fail,
    damage_landing,
    global_fail,
    stepped,
    subjects,
)
from engine.wizbits.dice import Stat, die_level
from engine.wizbits.effects import (
    ChangeStat,
    Check,
    Counter,
    Damage,
    Destroy,
    Discard,
    Draw,
    Duration,
    Effect,
    GainPoints,
    GrantAttribute,
    Heal,
    Mill,
    ReturnToHand,
    Search,
    Secede,
    Target,
)
from engine.wizbits.model import AbilityType, Category
from engine.wizbits.statics import AttributeGrant, CostChange, Group, StatBonus
from engine.wizbits.views import PermanentView

DECK_RESERVE = 4
"""Cards kept in the deck beyond the next Reconcile's draw, against the opponent's mills."""


def character_worth(perm: PermanentView, board: Board) -> float:
    """What losing a character costs its owner (a Main Character: the game)."""
    if perm.is_main:
        return WIN
    if perm.seceded:
        return 0.1  # discarded at the end of the turn anyway
    strength = die_level(perm.points.strength) if perm.points else 0
    return 1.2 + strength / 6


def permanent_worth(perm: PermanentView, board: Board) -> float:
    """What a card in play is worth to its owner, as a fighter, a lasting effect and a payment."""
    if perm.points is not None:
        return character_worth(perm, board)
    if perm.seceded:
        return 0.1
    card = card_of(perm.iid, board)
    lasting = sum(static_value(static, perm.owner, board) for ability in card.abilities
                  if ability.type is AbilityType.CONTINUE for static in ability.statics)
    triggers = sum(0.4 for ability in card.abilities if ability.type is not AbilityType.CONTINUE)
    return 0.3 + lasting + triggers


def damage_value(perm: PermanentView, amount: int, board: Board) -> float:
    """What ``amount`` damage on ``perm`` is worth to the damage's dealer (its owner's opponent)."""
    if perm.points is None or amount <= 0:
        return 0.0
    landed = damage_landing(perm, amount)
    if perm.is_main:
        return -board.main_shift(perm.owner, replace(perm.points, scn=perm.points.scn + landed))
    # Other characters check only after battle: damage now matters most in one.
    weight = 1.0 if board.in_battle(perm.iid) else 0.5
    worth = character_worth(perm, board)
    return weight * worth * (global_fail(perm.points, landed) - global_fail(perm.points)) + 0.05 * landed


def heal_value(perm: PermanentView, amount: int, board: Board) -> float:
    """What healing ``perm`` is worth to its owner."""
    healed = min(amount, perm.damage)
    if perm.points is None or healed <= 0:
        return 0.0
    if perm.is_main:
        return board.main_shift(perm.owner, replace(perm.points, scn=perm.points.scn - healed))
    return 0.5 * character_worth(perm, board) * (global_fail(perm.points) - global_fail(perm.points, -healed))


def stat_value(perm: PermanentView, stat: Stat, steps: int, lasting: bool, board: Board) -> float:
    """What moving one Main Point of ``perm`` is worth to its owner."""
    if perm.points is None:
        return 0.0
    changed = stepped(perm.points, stat, steps)
    if perm.is_main:
        value = board.main_shift(perm.owner, changed, now_only=not lasting)
    else:
        value = 0.5 * character_worth(perm, board) * (global_fail(perm.points) - global_fail(changed))
    if stat is Stat.STRENGTH:
        # Strength is damage dealt in this turn's battles.
        fights = board.in_battle(perm.iid) or board.view.phase in ("elements", "non_elements", "characters") \
            and board.view.active == perm.owner and board.view.play_round < 3
        value += (0.9 if board.in_battle(perm.iid) else 0.25 if fights else 0.0) * \
            (die_level(changed.strength) - die_level(perm.points.strength)) / 2
    return value


def static_value(static: object, owner: int, board: Board) -> float:
    """A Continue modifier's worth to the owner of its card."""
    if isinstance(static, StatBonus):
        if static.group is Group.YOUR_MAIN:
            return stat_value(board.main(owner), static.stat, static.steps, True, board)
        return 0.3 * static.steps * max(1, len(board.own(owner)) - 1)
    if isinstance(static, AttributeGrant):
        return 1.5 if static.group is Group.YOUR_MAIN else 0.5
    if isinstance(static, CostChange):
        return 0.6 if (static.amount > 0) == (static.player is Target.OPPONENT) else -0.6
    return 0.0


def deck_card_cost(seat: int, board: Board, taken: int = 1) -> float:
    """What taking ``taken`` cards off ``seat``'s deck costs it: little while it is thick, the game when it is gone.

    The hand refills to seven at the seat's next Reconcile, so that many cards
    must stay in the deck, with :data:`DECK_RESERVE` more against mills.
    """
    deck = board.deck(seat)
    refill = max(0, 7 - board.view.players[seat].hand_count) + 1
    left = deck - taken - refill - DECK_RESERVE
    if left < 0:
        return WIN
    per_card = 0.3 + 4.0 / (left + 2)
    return taken * per_card


def player_value(effect: Effect, seat: int, controller: int, board: Board) -> float:
    """What an effect on player ``seat`` is worth to ``controller``."""
    sign = 1.0 if seat == controller else -1.0
    player = board.view.players[seat]
    if isinstance(effect, Draw):
        if player.deck_count < effect.amount:
            return sign * -WIN
        return sign * (0.9 * effect.amount - deck_card_cost(seat, board, effect.amount) + 0.3 * effect.amount)
    if isinstance(effect, Search):
        return sign * (0.9 if player.deck_count else 0.0)
    if isinstance(effect, Discard):
        return sign * -0.7 * min(effect.amount, player.hand_count)
    if isinstance(effect, Mill):
        return sign * -deck_card_cost(seat, board, effect.amount) * 0.6
    if isinstance(effect, GainPoints):
        return sign * 0.35 * effect.amount
    return 0.0


def effect_value(effect: Effect, controller: int, source: int | None, chosen: int | None, board: Board) -> float:
    """What one effect is worth to ``controller``, its chosen target (iid or uid) being ``chosen``."""
    return sum(_on_subject(effect, controller, subject, board)
               for subject in subjects(effect.target, controller, source, chosen, board))


def _on_subject(effect: Effect, controller: int, subject: int | tuple[str, int], board: Board) -> float:
    if isinstance(subject, tuple):
        kind, number = subject
        if kind == "player":
            return player_value(effect, number, controller, board)
        if not isinstance(effect, Counter) or board.stopped(number):
            return 0.0
        return unit_value(number, board) * (1 if board.units.get(number, {}).get("owner") != controller else -1)
    perm = board.perms.get(subject)
    if perm is None:
        return 0.0
    sign = 1.0 if perm.owner == controller else -1.0
    if isinstance(effect, Damage):
        return -sign * damage_value(perm, effect.amount, board)
    if isinstance(effect, Heal):
        return sign * heal_value(perm, effect.amount, board)
    if isinstance(effect, ChangeStat):
        return sign * stat_value(perm, effect.stat, effect.steps, effect.duration is Duration.PERMANENT, board)
    if isinstance(effect, (Destroy, Secede)):
        return -sign * permanent_worth(perm, board) if not perm.is_main else 0.0
    if isinstance(effect, ReturnToHand):
        return -sign * 0.6 * permanent_worth(perm, board) if not perm.is_main else 0.0
    if isinstance(effect, GrantAttribute):
        if effect.attribute.value in perm.attributes:
            return 0.0
        guarding = perm.is_main or board.in_battle(perm.iid)
        return sign * (0.8 if guarding else 0.2)
    if isinstance(effect, Check) and perm.points is not None:
        chance = check_fail(perm.points, effect.spec)
        fail = sum(_on_subject(outcome, controller, perm.iid if outcome.target is Target.CHECKER else subject,
                               board) for outcome in effect.on_fail)
        success = sum(_on_subject(outcome, controller, perm.iid if outcome.target is Target.CHECKER else subject,
                                  board) for outcome in effect.on_success)
        return chance * fail + (1 - chance) * success
    return 0.0


def unit_value(uid: int, board: Board) -> float:
    """What an unresolved unit on the Pillar is worth to its owner (what countering it takes away)."""
    if uid not in board.unit_values:
        board.unit_values[uid] = _unit_value(uid, board)
    return board.unit_values[uid]


def _unit_value(uid: int, board: Board) -> float:
    unit = board.units.get(uid)
    if unit is None:
        return 0.0
    owner = int(unit["owner"])
    payload = unit["payload"]
    if unit["kind"] == "damage":
        return sum(damage_value(board.perms[int(iid)], int(points), board)
                   for iid, points in payload.get("damage", []) if int(iid) in board.perms)
    iid = payload.get("iid")
    if not isinstance(iid, int) or iid not in board.view.cards:
        return 0.5
    card = card_of(iid, board)
    value = 1.0 if unit["kind"] == "card" and card.category is not Category.ELEMENT else 0.0  # a card in play lasts
    for effect, chosen in board.unit_effects(unit):
        if isinstance(effect, Counter) and chosen is not None and board.stopped(chosen, ignoring=uid):
            continue  # another counter already stops that unit: this one adds nothing
        value += effect_value(effect, owner, iid, chosen, board)
    return max(value, 0.3)
