"""Bots for the Miras 9 TCG. ``random`` is ``engine.agents.RandomAgent``; ``HeuristicAgent`` plays sensibly:

keep its hand, ramp early, play the most expensive useful card, awaken when it can, attack the Site position with
every attacker unless a defender would trade favourably, block to kill or to save big Battle Damage, use
prevention and pump Reactions on its own endangered combatants, Manifest and Pressure everything it can, and pay
Battle Damage from Hand first (Main Deck, Resource and Used hold off the survival clock [M9-023]), then from the
piles it needs least. It mans every unmanned host it can, moves a Unit out of a column the enemy holds into one it
does not (to the enemy half, to Pressure there), Spots enemy Units that are En Route where it can attack them, and
never disembarks. It uses every Blackwake it can (a wound where it kills), makes every granted extra attack, and
sends an endangered Character out of the wave by Escape Route. A Ship-Site of its own contests an enemy Exterior
or Space that no enemy Unit holds (and comes back when the enemy gathers there), its crew step off there to
Pressure, and it attacks an enemy Ship-Site whose retaliation it survives. Among the contests it prefers the one
that takes most from the enemy: a Site with abilities (they are lost while contested [M9-065]), and a position
where its crew can step off (a Boarding Hulk's crew of Characters into the enemy Interior, ruling R-M9-58). A
Ship-Site's own abilities (ruling R-M9-59) it uses when they help: a self-repair when the wounds are worth the
tap (which is also its move), a GRIT boost at reaction speed only for a combatant the wave would otherwise defeat.
At Attune it Manifests with crew first where a card grants them the action (ruling R-M9-60: crew cannot block,
so their tap costs nothing a Unit standing there would lose). It reads only public state and its own cards.
"""

from __future__ import annotations

from typing import Any, Final

from annals.engine import agents
from annals.engine.core import DecisionPoint
from annals.engine.miras9.board import atk, grit, is_unit, ship_at, unit_lanes
from annals.engine.miras9.choices import (
    Activate,
    AddAttacker,
    AssignBlocker,
    Awaken,
    CardFlow,
    Confirm,
    DeclareAt,
    Disembark,
    DoManifest,
    DoPressure,
    Embark,
    Generate,
    Heal,
    MoveShipSite,
    MoveUnit,
    Mulligan,
    Pass,
    PlayCard,
    TakeBack,
)
from annals.engine.miras9.combat import attackers_in
from annals.engine.miras9.shipsites import covers_site, is_ship_site, retaliation
from annals.engine.miras9.state import M9State, lane_of, loc_of, side_of
from annals.engine.rng import Rng
from annals.schemas import miras9 as sm

# the decisions that offer a take-back [M9-074], [M9-076]
TAKE_BACK_POINTS: Final = frozenset({"attackers", "blockers"})
# Battle Damage is paid from Hand first (its cheapest card): Main Deck, Resource and Used are the survival clock
# [M9-023], which cards in Hand do not hold off; then Used, Echo, Main Deck, Resource.
_PAY_ORDER: Final = {"hand": 0, "used": 1, "echo": 2, "deck": 3, "resource": 4}


class RandomAgent(agents.RandomAgent):
    """Uniform among the options, but it never takes back a pick: taking back is for a person who changes their
    mind before confirming [M9-074]; a random player taking back every other pick would almost never finish a
    wave, and with its deck spent a game of two such players need never end."""

    def choose(self, view: Any, point: DecisionPoint[Any]) -> Any:
        options = point.options
        if point.point in TAKE_BACK_POINTS:
            options = [o for o in options if type(o) is not TakeBack] or options
        return options[self.rng.below(len(options))]


class HeuristicAgent:
    def __init__(self, player: int, rng: Rng):
        self.player = player
        self.rng = rng

    def choose(self, s: M9State, point: DecisionPoint[Any]) -> Any:
        opts = list(point.options)
        handler = getattr(self, "_" + point.point.replace(".", "_"), None)
        choice = handler(s, opts) if handler is not None else None
        return choice if choice is not None else opts[0]

    # ---- set-up and Awaken
    def _starting_site(self, s: M9State, opts: list[sm.PickSite]) -> Any:
        return max(opts, key=lambda o: (s.pool[s.cards[o.card].cid].gen, -o.lane))

    def _mulligan(self, s: M9State, opts: list[sm.Mulligan]) -> Any:
        hand = s.players[self.player].hand
        cheap = sum(1 for c in hand if s.pool[s.cards[c].cid].cost <= 2)
        return Mulligan(cheap == 0)

    def _card_flow(self, s: M9State, opts: list[sm.CardFlow]) -> Any:
        pl = s.players[self.player]
        return CardFlow(len(pl.resource) < 5 and len(pl.hand) >= 3)

    def _generate(self, s: M9State, opts: list[Any]) -> Any:
        for o in opts:
            if type(o) is Awaken:
                return self._best_awaken(s, opts)
        return max((o for o in opts if type(o) is Generate), key=lambda o: o.amount)

    def _best_awaken(self, s: M9State, opts: list[Any]) -> Any:
        aw = [o for o in opts if type(o) is Awaken]
        return aw[0] if aw else None

    # ---- main phases
    def _value(self, s: M9State, o: sm.PlayCard) -> float:
        cs = s.cards[o.card]
        d = s.pool[cs.cid]
        v = float(d.cost) + 0.5
        if d.type == "site":
            v += 3 + d.gen
        elif d.type == "ship_site":
            v += 3 + d.gen + d.crew * 0.3
        elif d.type == "unit":
            v += (d.atk + d.grit) * 0.3
            if side_of(o.loc) != self.player:
                v += 0.5  # an infiltrator that can Pressure
        elif d.type == "equipment":
            host = s.cards[o.target]
            v += atk(s, host) * 0.2 + (0 if host.tapped else 0.5)
        elif d.type == "event":
            if d.target == "enemy_unit":
                t = s.cards[o.target]
                w = [e for e in d.effects if type(e).__name__ == "Wound"]
                kills = bool(w) and t.wounds + getattr(w[0], "amount", 0) >= grit(s, t)
                v += atk(s, t) + (3 if kills else -2)
                if not w and d.cost >= 5:
                    v += grit(s, t)
            elif d.target == "unit":
                t = s.cards[o.target]
                v += -5 if t.ctrl == self.player else atk(s, t) - 1
            elif d.target == "friendly_unit":
                v -= 3
            elif d.target == "enemy_en_route":  # Spot: worth it when something of ours can then attack it
                t = s.cards[o.target]
                able = any(
                    u.ctrl == self.player and lane_of(u.loc) == lane_of(t.loc) and u.attuned for u in self._mine(s)
                )
                w = [e for e in d.effects if type(e).__name__ == "Wound"]
                kills = bool(w) and t.wounds + getattr(w[0], "amount", 0) >= grit(s, t)
                v += (2 if able else -2) + (4 if kills else 0)
        return v

    def _mine(self, s: M9State) -> list[Any]:
        return [s.cards[c] for c in s.board if s.cards[c].ctrl == self.player and is_unit(s, s.cards[c])]

    def _embark(self, s: M9State, opts: list[Any]) -> Any:
        """Man an unmanned host (the first legal boarding of a host with no crew yet)."""
        for o in opts:
            host = s.cards[o.host] if type(o) is Embark else None
            if host is not None and host.crew == 0 and not (is_ship_site(s, host) and side_of(host.loc) != self.player):
                return o  # never back aboard a contesting Ship-Site its crew stepped off (that would loop)
        return None

    def _held(self, s: M9State, lane: int) -> int:
        """How many enemy Units stand in the lane column."""
        return sum(1 for c in s.board if s.cards[c].ctrl != self.player and is_unit(s, s.cards[c])
                   and lane_of(s.cards[c].loc) == lane)  # fmt: skip

    def _move(self, s: M9State, opts: list[Any]) -> Any:
        aw = self._best_awaken(s, opts)
        if aw is not None:
            return aw
        board = self._embark(s, opts)
        if board is not None:
            return board
        ship = self._ship_move(s, opts)
        if ship is not None:
            return ship
        best, best_score = None, 0.0
        for o in opts:
            if type(o) is not MoveUnit:
                continue
            cs = s.cards[o.card]
            here, there = self._held(s, lane_of(cs.loc)), self._held(s, lane_of(o.loc))
            score = (here - there) * 1.0 + (0.5 if side_of(o.loc) != self.player and not there else 0.0)
            if here and not there and score > best_score:
                best, best_score = o, score
        if best is not None and len(s.players[self.player].resource) >= 2:
            return best
        return Pass()

    def _ship_move(self, s: M9State, opts: list[Any]) -> Any:
        """Contest an enemy position whose column no enemy Unit holds (the one that takes most, ``_contest_value``);
        come back from one the enemy holds."""
        budget = len(s.players[self.player].resource)
        best, best_score = None, -1
        for o in opts:
            if type(o) is not MoveShipSite:
                continue
            cs = s.cards[o.card]
            here, there = self._held(s, lane_of(cs.loc)), self._held(s, lane_of(o.loc))
            if side_of(cs.loc) != self.player and side_of(o.loc) == self.player and here and not there:
                return o  # return from a contest the enemy now holds
            if side_of(cs.loc) == self.player and side_of(o.loc) != self.player and not there and budget >= 3:
                score = self._contest_value(s, cs, lane_of(o.loc))  # contest: the Site loses its abilities
                if score > best_score:
                    best, best_score = o, score
        return best

    def _contest_value(self, s: M9State, ship: Any, lane: int) -> int:
        """What contesting the enemy position in ``lane`` takes: 1 if the Site there has abilities (lost while
        contested [M9-065]), 1 if a crew member aboard may step off there to Pressure (a Character never in Space
        [M9-059]; the enemy Interior only by a Boarding Hulk's permission, R-M9-58)."""
        site = s.players[1 - self.player].sites[lane]
        d = s.pool[s.cards[site].cid] if site else None
        value = int(d is not None and bool(d.statics or d.keywords))
        crew = [s.cards[c] for c in s.board if s.cards[c].aboard == ship.iid]
        return value + int(any(lane in unit_lanes(s.pool[c.cid]) for c in crew))

    def _disembark(self, s: M9State, opts: list[Any]) -> Any:
        """Step ready crew off a Ship-Site contesting an enemy position no enemy Unit holds, to Pressure there."""
        for o in opts:
            if type(o) is not Disembark:
                continue
            cs = s.cards[o.card]
            host = s.cards[cs.aboard]
            if (is_ship_site(s, host) and side_of(host.loc) != self.player and not self._held(s, lane_of(host.loc))
                    and cs.attuned and not cs.tapped):  # fmt: skip
                return o
        return None

    def _action(self, s: M9State, opts: list[Any]) -> Any:
        aw = self._best_awaken(s, opts)
        if aw is not None:
            return aw
        off = self._disembark(s, opts)
        if off is not None:
            return off
        board = self._embark(s, opts)
        if board is not None:
            return board
        plays = [o for o in opts if type(o) is PlayCard]
        acts = [o for o in opts if type(o) is Activate]
        if plays:
            best = max(plays, key=lambda o: self._value(s, o))
            if self._value(s, best) > 0:
                return best
        for a in acts:  # a Ship-Site's repair of itself, when its wounds are worth the tap (its move this turn)
            src = s.cards[a.card]
            if a.target == 0 and is_ship_site(s, src) and src.wounds and self._mends(s, src, a):
                return a
        for a in acts:
            t = s.cards.get(a.target)
            if t is not None and (
                t.wounds or s.pool[s.cards[a.card].cid].abilities[a.ability].target == "enemy_en_route"
            ):
                return a
        return Pass()

    def _mends(self, s: M9State, src: Any, a: sm.Activate) -> bool:
        """Does this self-targeted ability heal, and are the wounds worth it: all of its amount, or the Ship-Site
        two wounds or fewer from defeat [M9-030]?"""
        heals = [e.amount for e in s.pool[src.cid].abilities[a.ability].effects if type(e) is Heal]
        return bool(heals) and (src.wounds >= heals[0] or grit(s, src) - src.wounds <= 2)

    def _attack(self, s: M9State, opts: list[Any]) -> Any:
        aw = self._best_awaken(s, opts)
        if aw is not None:
            return aw
        decl = [o for o in opts if type(o) is DeclareAt]
        open_ = [o for o in decl if not covers_site(s, 1 - self.player, o.lane)]
        if open_:
            return open_[0]
        for o in decl:  # the enemy's Ship-Site covers the Site: attack it only where someone survives or sinks it
            ship = s.cards[ship_at(s, loc_of(1 - self.player, o.lane))]
            left = grit(s, ship) - ship.wounds
            for u in attackers_in(s, self.player, o.lane):
                if retaliation(s, ship) < grit(s, u) - u.wounds or atk(s, u) >= left:
                    return o
        return Pass()

    def _attackers(self, s: M9State, opts: list[Any]) -> Any:
        adds = [o for o in opts if type(o) is AddAttacker]
        w = s.wave
        assert w is not None
        foes = [s.cards[c] for c in s.board if s.cards[c].ctrl != self.player and lane_of(s.cards[c].loc) == w.lane]
        blockers = [f for f in foes if f.attuned and not f.tapped and f.zone.startswith("lane")]
        best_blocker = max((atk(s, f) for f in blockers), default=0)
        for o in adds:  # Killing Machine: a Unit he defeats and survives earns another attack [M9-083]
            me = s.cards[o.card]
            if o.target and "killing_machine" in s.pool[me.cid].keywords:
                foe = s.cards[o.target]
                if atk(s, me) >= grit(s, foe) - foe.wounds and atk(s, foe) < grit(s, me) - me.wounds:
                    return o
        for o in adds:  # an enemy Ship-Site whose retaliation it survives [M9-072]
            me = s.cards[o.card]
            ship = s.cards.get(o.target) if o.target else None
            if ship is not None and is_ship_site(s, ship) and retaliation(s, ship) < grit(s, me) - me.wounds:
                return o
        for o in adds:
            me = s.cards[o.card]
            if o.target == 0 and (grit(s, me) > best_blocker or atk(s, me) >= 3 or not blockers):
                return o
            if (
                o.target
                and atk(s, me) >= grit(s, s.cards[o.target]) - s.cards[o.target].wounds
                and atk(s, s.cards[o.target]) < grit(s, me)
            ):
                return o
        if not w.attackers and adds:
            return next((o for o in adds if o.target == 0), adds[0])
        return Confirm()

    def _blockers(self, s: M9State, opts: list[Any]) -> Any:
        w = s.wave
        assert w is not None
        taken = set(w.blocked)
        for o in opts:
            if type(o) is not AssignBlocker or o.attacker in taken:
                continue
            b, a = s.cards[o.card], s.cards[o.attacker]
            idx = w.attackers.index(o.attacker)
            at_site = w.targets[idx] == 0
            survives = atk(s, a) < grit(s, b) - b.wounds
            kills = atk(s, b) >= grit(s, a) - a.wounds
            big = at_site and atk(s, a) >= 3
            if survives or kills or big:
                return o
        return Confirm()

    # ---- reactions
    def _priority(self, s: M9State, opts: list[Any]) -> Any:
        w = s.wave
        if w is None or len(opts) == 1:
            return Pass()
        for o in opts:
            if type(o) is Pass:
                continue
            target = o.target
            if target and target in s.cards:
                t = s.cards[target]
                mine = t.ctrl == self.player
                card = s.cards[o.card]
                eff_names = self._effect_names(s, card.cid, o)
                if type(o) is Activate and is_ship_site(s, card):  # R-M9-59: only for a combatant it saves
                    if mine and "boost" in eff_names and w.step == 4 and self._saved(s, t, card.cid, o):
                        return o
                    continue
                if mine and ("shield" in eff_names or "boost" in eff_names or "heal" in eff_names) and w.step == 4:
                    return o
                if not mine and ("wound" in eff_names) and grit(s, t) - t.wounds <= 2:
                    return o
                if not mine and "withdraw" in eff_names and w.step == 4 and atk(s, t) >= 3:
                    return o
                if mine and "escape" in eff_names and w.step == 4 and self._endangered(s, t.iid):
                    return o
        return Pass()

    def _saved(self, s: M9State, t: Any, cid: str, o: sm.Activate) -> bool:
        """Would the wave defeat ``t`` without this ability's GRIT boost, and not with it?"""
        more = sum(getattr(e, "grit", 0) for e in s.pool[cid].abilities[o.ability].effects)
        foes = self._wave_foes(s)
        return self._endangered(s, t.iid) and sum(atk(s, s.cards[c]) for c in foes) < grit(s, t) - t.wounds + more

    def _wave_foes(self, s: M9State) -> list[int]:
        w = s.wave
        assert w is not None
        return [c for c in w.attackers + w.blockers if c in s.cards and s.cards[c].ctrl != self.player]

    def _endangered(self, s: M9State, card: int) -> bool:
        """Would the wave's enemy combatants' ATK, all together, defeat ``card``?"""
        w = s.wave
        assert w is not None
        cs = s.cards[card]
        foes = [c for c in w.attackers + w.blockers if c in s.cards and s.cards[c].ctrl != self.player]
        return sum(atk(s, s.cards[c]) for c in foes) >= grit(s, cs) - cs.wounds

    def _blackwake(self, s: M9State, opts: list[sm.UseBlackwake]) -> Any:
        uses = [o for o in opts if o.use]
        if not uses:
            return opts[0]

        def key(o: sm.UseBlackwake) -> tuple[bool, int]:
            t = s.cards.get(o.target)
            if t is None:
                return (False, 0)
            return (grit(s, t) - t.wounds <= 2, atk(s, t))

        return max(uses, key=key)

    def _extra_attack(self, s: M9State, opts: list[sm.UseExtraAttack]) -> Any:
        return next((o for o in opts if o.take), opts[0])

    def _effect_names(self, s: M9State, cid: str, o: Any) -> set[str]:
        d = s.pool[cid]
        effects = d.abilities[o.ability].effects if type(o) is Activate else d.effects
        return {type(e).__name__.lower() for e in effects}

    # ---- Attune and Battle Damage
    def _attune(self, s: M9State, opts: list[Any]) -> Any:
        aw = self._best_awaken(s, opts)
        if aw is not None:
            return aw
        manifests = [o for o in opts if type(o) is DoManifest]
        if manifests:  # crew first (R-M9-60: they cannot block, so their tap loses nothing), else the first
            return next((o for o in manifests if s.cards[o.card].aboard), manifests[0])
        for kind in (DoPressure, Activate):
            for o in opts:
                if type(o) is kind:
                    return o
        pl = s.players[self.player]
        if len(pl.hand) < 2 and len(pl.resource) > 3:
            for o in opts:
                if type(o).__name__ == "ResourceToHand":
                    return o
        return Pass()

    def _battle_damage(self, s: M9State, opts: list[sm.PayPoint]) -> Any:
        pl = s.players[self.player]
        leader = s.cards[pl.leader]

        def key(o: sm.PayPoint) -> tuple[int, int]:
            rank = _PAY_ORDER[o.source]
            if o.source == "echo" and leader.zone == "planet" and pl.echo >= s.pool[leader.cid].threshold - 2:
                rank = _PAY_ORDER["resource"]  # saving up to Awaken
            cost = s.pool[s.cards[o.card].cid].cost if o.card else 0
            return (rank, cost)

        return min(opts, key=key)
