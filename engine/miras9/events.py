"""The Miras 9 events the rules emit, as ``Final`` constants of a compiled module (``engine.compiled``): a compiled
rule module reads each class from a C static, where a class imported from ``schemas.miras9`` (an interpreted
module) is looked up by name in the importing module's globals at every use, once per event built. Interpreted,
they are the classes of ``schemas.miras9`` themselves. Annotations name the classes there (``ev.CardMoved``).
"""

from __future__ import annotations

from typing import Final

from annals.schemas import miras9 as ev

AbilityActivated: Final = ev.AbilityActivated
Arrived: Final = ev.Arrived
Awakened: Final = ev.Awakened
BattleDamageAssigned: Final = ev.BattleDamageAssigned
BattleDamagePaid: Final = ev.BattleDamagePaid
BlackwakeChecked: Final = ev.BlackwakeChecked
BlackwakeResolved: Final = ev.BlackwakeResolved
BlockersDeclared: Final = ev.BlockersDeclared
CardMoved: Final = ev.CardMoved
CardPlayed: Final = ev.CardPlayed
CombatDamage: Final = ev.CombatDamage
CounterChanged: Final = ev.CounterChanged
DamagePrevented: Final = ev.DamagePrevented
DeckPrepared: Final = ev.DeckPrepared
DestinationChosen: Final = ev.DestinationChosen
Disembarked: Final = ev.Disembarked
Embarked: Final = ev.Embarked
ExtraAttackGranted: Final = ev.ExtraAttackGranted
ExtraAttackTaken: Final = ev.ExtraAttackTaken
FirstPlayerChosen: Final = ev.FirstPlayerChosen
GameOver: Final = ev.GameOver
LeftWave: Final = ev.LeftWave
Manifested: Final = ev.Manifested
MulliganTaken: Final = ev.MulliganTaken
PhaseBegan: Final = ev.PhaseBegan
PileShuffled: Final = ev.PileShuffled
PlanetPlaced: Final = ev.PlanetPlaced
Pressured: Final = ev.Pressured
PriorityPassed: Final = ev.PriorityPassed
ReplacementApplied: Final = ev.ReplacementApplied
Restored: Final = ev.Restored
SelectionChanged: Final = ev.SelectionChanged
SelectionUndone: Final = ev.SelectionUndone
ShipSiteAttacked: Final = ev.ShipSiteAttacked
ShipSiteMoved: Final = ev.ShipSiteMoved
Spotted: Final = ev.Spotted
StackPushed: Final = ev.StackPushed
StackResolved: Final = ev.StackResolved
TokenCreated: Final = ev.TokenCreated
TriggerFired: Final = ev.TriggerFired
TurnBegan: Final = ev.TurnBegan
UnitMoved: Final = ev.UnitMoved
WaveDeclared: Final = ev.WaveDeclared
WaveEnded: Final = ev.WaveEnded
WaveStep: Final = ev.WaveStep
WindowClosed: Final = ev.WindowClosed
WindowOpened: Final = ev.WindowOpened
