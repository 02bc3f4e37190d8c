"""The Miras 9 options and card effects the rules build and test for, as ``Final`` constants of a compiled module
(``engine.compiled``), as ``events`` holds the events: a compiled rule module reads each class from a C static,
where a class imported from ``schemas.miras9`` (an interpreted module) is looked up by name in the importing
module's globals at every use (each option built, each ``type(choice) is Pass``). Interpreted, they are the
classes of ``schemas.miras9`` themselves. Annotations name the classes there (``sm.PlayCard``).
"""

from __future__ import annotations

from typing import Final

from annals.engine.structs import DecisionPoint as _DecisionPoint
from annals.schemas import miras9 as sm

# the question the rules ask (``M9Ruleset.pending``): ``engine.structs``' class, interpreted too
DecisionPoint: Final = _DecisionPoint

# options
Activate: Final = sm.Activate
AddAttacker: Final = sm.AddAttacker
AssignBlocker: Final = sm.AssignBlocker
Awaken: Final = sm.Awaken
CardFlow: Final = sm.CardFlow
Confirm: Final = sm.Confirm
DeclareAt: Final = sm.DeclareAt
Disembark: Final = sm.Disembark
DoManifest: Final = sm.DoManifest
DoPressure: Final = sm.DoPressure
DoRestore: Final = sm.DoRestore
Embark: Final = sm.Embark
Generate: Final = sm.Generate
MoveShipSite: Final = sm.MoveShipSite
MoveUnit: Final = sm.MoveUnit
Mulligan: Final = sm.Mulligan
Pass: Final = sm.Pass
PayPoint: Final = sm.PayPoint
PickSite: Final = sm.PickSite
PlayCard: Final = sm.PlayCard
ResourceToHand: Final = sm.ResourceToHand
TakeBack: Final = sm.TakeBack
UseBlackwake: Final = sm.UseBlackwake
UseExtraAttack: Final = sm.UseExtraAttack

# card effects (``effects.resolve`` dispatches on their type)
Boost: Final = sm.Boost
Bounce: Final = sm.Bounce
DefeatEff: Final = sm.DefeatEff
Draw: Final = sm.Draw
Escape: Final = sm.Escape
GainEcho: Final = sm.GainEcho
GenerateEff: Final = sm.GenerateEff
Heal: Final = sm.Heal
MakeToken: Final = sm.MakeToken
Mill: Final = sm.Mill
NoEffect: Final = sm.NoEffect
ReadyEff: Final = sm.ReadyEff
Script: Final = sm.Script
Shield: Final = sm.Shield
Spot: Final = sm.Spot
TapEff: Final = sm.TapEff
Withdraw: Final = sm.Withdraw
Wound: Final = sm.Wound
