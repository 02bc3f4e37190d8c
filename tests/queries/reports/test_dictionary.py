"""The documented schema: every table, view and column has a comment; ``annals schema`` prints them;
``decision_options`` decodes the options by field name."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from annals.cli.main import app
from annals.ingest.flatten import collect
from annals.queries.reports.dictionary import dictionary
from annals.queries.reports.filters import UnknownValueError
from annals.schemas.logfile import read_log

runner = CliRunner()


@pytest.mark.parametrize("which", ["db", "real_db"])
def test_every_table_view_and_column_has_a_comment(which: str, request: pytest.FixtureRequest) -> None:
    con = duckdb.connect(str(request.getfixturevalue(which)), read_only=True)
    frame = dictionary(con)
    missing = frame.filter(frame["comment"].is_null() | (frame["comment"].str.strip_chars() == ""))
    assert missing.height == 0, missing.select("table", "column").rows()
    tables = set(frame["table"])
    assert {"games", "events", "card_games", "game_dates", "decision_options", "m9_damage_payments"} <= tables
    assert frame.filter(frame["column"].is_not_null()).height > 150
    with pytest.raises(UnknownValueError, match="known: card_facts, card_games"):
        dictionary(con, "nosuch")


def test_annals_schema_command(real_db: Path) -> None:
    shown = runner.invoke(app, ["schema", "games", "--db", str(real_db)])
    assert shown.exit_code == 0 and "first_player INTEGER: " in shown.output and "[MOR-13]" in shown.output
    as_json = json.loads(runner.invoke(app, ["schema", "--db", str(real_db), "-f", "json"]).output)
    assert all(row["comment"] for row in as_json)
    bad = runner.invoke(app, ["schema", "nosuch", "--db", str(real_db)])
    assert bad.exit_code == 2 and "no table or view 'nosuch'" in bad.output


def test_decision_options_name_every_field(real_db: Path, real_logs: Path) -> None:
    con = duckdb.connect(str(real_db), read_only=True)
    log = read_log(collect([real_logs / "miras9"])[0])
    for d in log.decisions[:40]:
        got = con.execute(
            "SELECT option, kind, chosen, fields FROM decision_options JOIN games USING (game) "
            "WHERE game_id = ? AND n = ? ORDER BY option",
            [log.header.game_id, d.n],
        ).fetchall()
        assert len(got) == len(d.offered)
        for (option, kind, chosen, fields), offered in zip(got, d.offered, strict=True):
            assert kind == type(offered).__name__ and chosen == (option == d.chosen)
            assert {k: json.loads(v) for k, v in fields.items()} == {
                f: getattr(offered, f) for f in offered.__struct_fields__
            }


def test_damage_payments_name_the_payer_and_first_is_explained(real_db: Path) -> None:
    """[M9-086] the payer of each point is a column; [MOR-28] [MOR-29] first = -1 means simultaneous."""
    con = duckdb.connect(str(real_db), read_only=True)
    paid = con.execute(
        "SELECT count(*), count(payer), count(*) FILTER (WHERE payer = player), "
        "count(*) FILTER (WHERE paid_from <> 'echo' AND paid_card IS NULL) FROM m9_damage_payments "
        "WHERE kind = 'BattleDamagePaid'"
    ).fetchall()[0]
    assert paid[0] > 0 and paid[0] == paid[1] == paid[2] and paid[3] == 0
    order = con.execute(
        "SELECT count(*) FILTER (WHERE simultaneous <> (first_resolver IS NULL)), count(*) FILTER (WHERE simultaneous) "
        "FROM mor_site_resolutions WHERE kind = 'SiteResolutionBegan'"
    ).fetchall()[0]
    assert order[0] == 0
