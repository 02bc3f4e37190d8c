"""The Miras 9 TCG ruleset: state, reducer, rules by noun, card data, bots. ``ruleset.RULESET`` is the entry.

Modules: ``state`` (the State struct), ``reducer`` (the one ``apply``), ``turn`` (set-up and phases), ``combat``
(attack waves), ``stack`` (reaction windows and priority), ``board`` (effective values, presence, targets and the
basic state changes), ``damage`` (wounds, leaving the board, Battle Damage), ``effects`` (the effect primitives,
triggers and defeat), ``cards`` (loading and deck checks), ``scripts`` (named hooks for
unique cards), ``bots`` (the heuristic bot), ``ruleset`` (the ``Ruleset`` object). Card data: ``data/cards.toml``;
decks: ``data/decks.toml``.

Bot games: ``annals simulate miras9 --games 100 --seed 1 --decks vanguard,tempest --bots heuristic,random
--out logs/ --max-turns 200``. Games end by the rules (random games took at most 169 turns in our runs);
``ruleset.DEFAULT_MAX_TURNS`` (200) is the cap the tests and measurements use, recorded as ``turn_cap``.
"""
