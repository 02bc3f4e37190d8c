"""The Miras 9 TCG ruleset: state, reducer, rules by noun, card data, bots. ``ruleset.RULESET`` is the entry."""
