"""How the Normal bot judges Conflict: attacks, blocks, assignments and damage splits.

Battles are judged together, because what matters most is whether a Main
Character must make a Break check right now: forcing the opposing Main into a
battle when it is badly hurt wins before my own next Test, and sending my own
Main in only makes sense when it is likely to fail anyway (a draw beats a loss).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.wizbits.actions import Action, Assign, Attack, Block, Divide
from engine.wizbits.bots.heuristics import WIN, Board, card_of, damage_landing, global_fail
from engine.wizbits.bots.values import character_worth, effect_value
from engine.wizbits.dice import MainPoints, die_level
from engine.wizbits.terms import TriggerEvent
from engine.wizbits.views import PermanentView

Fight = tuple[tuple[int, ...], tuple[int, ...]]
"""A battle as (my characters, their characters), by iid."""


def side_loss(perm: PermanentView, damage: int, board: Board) -> float:
    """What a character's owner loses by fighting a battle in which it takes ``damage``, judged alone."""
    assert perm.points is not None
    landed = damage_landing(perm, damage)
    fail = global_fail(perm.points, landed)
    if perm.is_main:
        after = replace(perm.points, scn=perm.points.scn + landed)
        shift = board.race({perm.owner: after}, front={perm.owner: fail}) - board.race()
        return WIN * (-shift if perm.owner == board.me else shift)
    return character_worth(perm, board) * fail


def split(total: int, targets: Sequence[PermanentView], board: Board) -> list[int]:
    """``total`` damage split greedily to hurt the receiving side most."""
    given = [0] * len(targets)
    if not targets:
        return given
    for _ in range(total):
        def gain(index: int) -> float:
            now = side_loss(targets[index], given[index], board)
            return max(side_loss(targets[index], given[index] + step, board) - now for step in (1, 2))
        given[max(range(len(targets)), key=gain)] += 1
    return given


def strength(perms: Sequence[PermanentView]) -> int:
    """A side's total Strength: the damage it divides."""
    return sum(die_level(perm.points.strength) for perm in perms if perm.points is not None)


def battles_value(fights: Sequence[Fight], board: Board) -> float:
    """What these battles together are worth to me, each side splitting its damage well.

    Both Main Characters' checks are judged together, so a battle where both
    may fail counts as the likely draw it is.
    """
    key = tuple(sorted(fights))
    if key not in board.battle_values:
        board.battle_values[key] = _battles_value(key, board)
    return board.battle_values[key]


def _battles_value(fights: Sequence[Fight], board: Board) -> float:
    changed: dict[int, MainPoints] = {}
    front: dict[int, float] = {}
    value = 0.0
    for mine_ids, theirs_ids in fights:
        mine = [board.perms[iid] for iid in mine_ids]
        theirs = [board.perms[iid] for iid in theirs_ids]
        for side, damage in ((theirs, split(strength(mine), theirs, board)),
                             (mine, split(strength(theirs), mine, board))):
            for perm, points in zip(side, damage, strict=False):
                assert perm.points is not None
                landed = damage_landing(perm, points)
                fail = global_fail(perm.points, landed)
                if perm.is_main:
                    changed[perm.owner] = replace(perm.points, scn=perm.points.scn + landed)
                    front[perm.owner] = fail
                else:
                    value += character_worth(perm, board) * fail * (1 if perm.owner != board.me else -1)
    if front:
        value += WIN * (board.race(changed, front=front) - board.race())
    return value


def may_battle(one: PermanentView, other: PermanentView) -> bool:
    """Elusive characters battle only Elusive ones, and the other way round."""
    return ("elusive" in one.attributes) == ("elusive" in other.attributes)


def fighters(seat: int, board: Board) -> list[PermanentView]:
    """A seat's characters that may battle: in play and not seceded."""
    return [p for p in board.own(seat) if p.points is not None and not p.seceded]


def _sends(fixed: list[Fight], loose: list[PermanentView], free: list[PermanentView], board: Board,
           mine_attack: bool) -> float:
    """Value after the attacker sends ``loose`` attackers one by one where they do the attacker most good."""
    fights = list(fixed)
    free = list(free)
    for attacker in loose:
        best_value, best_fight = battles_value(fights, board), None
        for defender in free:
            if not may_battle(attacker, defender):
                continue
            fight: Fight = ((attacker.iid,), (defender.iid,)) if mine_attack else ((defender.iid,), (attacker.iid,))
            value = battles_value([*fights, fight], board)
            better = value > best_value if mine_attack else value < best_value
            if better:
                best_value, best_fight = value, fight
        if best_fight is not None:
            fights.append(best_fight)
            taken = best_fight[1][0] if mine_attack else best_fight[0][0]
            free = [d for d in free if d.iid != taken]
    return battles_value(fights, board)


def attack_score(board: Board, action: Action) -> float:
    """An attack against the defender's most damaging plain answer: no block, or one character blocking one attacker."""
    assert isinstance(action, Attack)
    attackers = [board.perms[iid] for iid in action.attackers]
    if not attackers:
        return 0.0
    defenders = fighters(board.them, board)
    worst = _sends([], attackers, defenders, board, True)
    for blocker in defenders:
        for attacker in attackers:
            if may_battle(blocker, attacker):
                fight: Fight = ((attacker.iid,), (blocker.iid,))
                rest = [a for a in attackers if a.iid != attacker.iid]
                free = [d for d in defenders if d.iid != blocker.iid]
                worst = min(worst, _sends([fight], rest, free, board, True))
    bonus = sum(effect_value(effect, board.me, perm.iid, None, board)
                for perm in attackers for ability in card_of(perm.iid, board).abilities
                if ability.trigger is TriggerEvent.THIS_ATTACKS for effect in ability.effects)
    return worst + bonus - 0.05 * len(attackers)


def block_score(board: Board, action: Action) -> float:
    """My blocks, then the attacker sending what is left where it hurts me most."""
    assert isinstance(action, Block)
    groups: dict[int, list[int]] = {}
    for defender, attacker in action.blocks:
        groups.setdefault(attacker, []).append(defender)
    fixed: list[Fight] = [(tuple(blockers), (attacker,)) for attacker, blockers in groups.items()]
    loose = [board.perms[iid] for iid in board.view.attackers if iid not in groups]
    blocking = {defender for defender, _ in action.blocks}
    free = [p for p in fighters(board.me, board) if p.iid not in blocking]
    return _sends(fixed, loose, free, board, False)


def assign_score(board: Board, action: Action) -> float:
    """The battles the defender made, plus the ones this assignment makes."""
    assert isinstance(action, Assign)
    fights: list[Fight] = []
    blocked: dict[int, list[int]] = {}
    for defender, attacker in board.view.blocks:
        blocked.setdefault(attacker, []).append(defender)
    fights = [((attacker,), tuple(defenders)) for attacker, defenders in blocked.items()]
    groups: dict[int, list[int]] = {}
    for attacker, defender in action.assignments:
        groups.setdefault(defender, []).append(attacker)
    fights += [(tuple(sent), (defender,)) for defender, sent in groups.items()]
    return battles_value(fights, board)


def divide_score(board: Board, action: Action) -> float:
    """What my split of damage does to the other side of the battle being fought."""
    assert isinstance(action, Divide)
    given = dict(action.damage)
    attackers, defenders = board.view.battles[board.view.battle]
    targets = defenders if board.view.active == board.me else attackers
    return sum(side_loss(board.perms[iid], given.get(iid, 0), board) for iid in targets if iid in board.perms)
