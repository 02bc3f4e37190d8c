"""Rulesets are registered, not hard-wired: annals ships Miras 9 and MORANA, and a plugin (here the test suite's
toys) adds its own by ``register_ruleset`` or through the ``annals.rulesets`` / ``annals.schemas`` entry points."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from annals.engine.registry import get_ruleset, register_ruleset, ruleset_names
from annals.schemas.rulesets import RulesetRegistrationError, UnknownRulesetError, schema_for
from tests import toyrules

LIST = "from annals.engine.registry import ruleset_names as r; from annals.schemas.rulesets import ruleset_names as s; "
LIST += "print(r(), s())"


def names_in_a_fresh_process(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-c", LIST], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_product_knows_its_two_rulesets_only() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    assert names_in_a_fresh_process(env) == "['miras9', 'morana'] ['miras9', 'morana']"


def test_a_plugin_is_found_through_its_entry_points() -> None:
    both = "['cardtoy', 'miras9', 'morana', 'toy']"
    assert names_in_a_fresh_process(toyrules.subprocess_env()) == f"{both} {both}"


def test_registered_toys_play_and_read_in_this_process() -> None:
    assert {"toy", "cardtoy"} <= set(ruleset_names())
    assert get_ruleset("toy").schema is schema_for("toy")
    assert schema_for("cardtoy").aliases["play"] == "CardPlayed"


def test_registering_again_is_a_no_op_and_a_clash_is_refused() -> None:
    toyrules.register()
    register_ruleset("toy", *toyrules.TOYS["toy"])
    with pytest.raises(RulesetRegistrationError, match="already registered"):
        register_ruleset("toy", "tests.toyrules.cardtoy", "tests.toyrules.cardtoy_schema")
    with pytest.raises(RulesetRegistrationError, match="already registered"):
        register_ruleset("miras9", "tests.toyrules.toy", "tests.toyrules.toy_schema")
    assert get_ruleset("toy").schema.name == "toy" and get_ruleset("miras9").schema.name == "miras9"


def test_an_unknown_ruleset_is_named_with_the_choices() -> None:
    with pytest.raises(UnknownRulesetError, match=r"'chess'.*miras9, morana"):
        get_ruleset("chess")
    with pytest.raises(UnknownRulesetError, match="'chess'"):
        schema_for("chess")
