"""Named reports: SQL in ``queries/reports/sql/report_NAME.sql`` run by DuckDB, finished with polars, each stating its
sample, its filters and what its numbers mean.

Every report reads the games and seats the filters select (``queries.reports.filters``: ``sel_games``, ``sel_seats``).
Columns come in pairs by prefix: ``{p}games`` and ``{p}wins`` get ``{p}win_rate`` and a Wilson 95% confidence
interval (``{p}ci_low``, ``{p}ci_high``). Rows with fewer games than ``min_games`` (default ``MIN_GAMES``) in the
report's sample column are hidden, and the result says how many. The event reports (``metagame``,
``event_decks``, ``event_standings``) read the tournament tables and take ``$event`` and ``$ruleset`` instead.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

import duckdb
import msgspec
import polars as pl

from annals.queries.names import MIN_GAMES as MIN_GAMES  # defined there, light, for the command line
from annals.queries.reports import sqlfiles
from annals.queries.reports.filters import Filters, NotApplicableError, check, resolve_event, sample, select
from annals.schemas.errors import UnknownNameError
from annals.schemas.rulesets import ruleset_names, schema_for

Z95 = 1.959963984540054


class UnknownReportError(UnknownNameError):
    """No report by that name."""


LENGTH = (
    " Length bias: longer games give every card and action more chances, so a rate conditioned on it happening "
    "leans towards long games' results; compare mean_turns with the baseline's, and control with --min-turns N."
)


class ReportSpec(NamedTuple):
    title: str
    rulesets: tuple[str, ...] | None  # which rulesets it reads (None: all)
    per_seat: bool  # rows are about seats (seat filters select seats, --by splits); else about whole games
    description: str
    by: tuple[str, ...] = ()  # the --by splits it offers
    sample_column: str = "games"  # the column --min-games applies to ("" for none)
    event_tables: bool = False  # reads the tournament tables (--event, --ruleset), not the selected games
    proportions: dict[str, tuple[str, str]] = {}  # rate column -> (hits, of): the rate with its Wilson interval
    min_games: int = MIN_GAMES  # the default floor of --min-games (an event's field is small: its reports show all)
    turn_taking: bool = False  # reads only rulesets whose players take turns (not simultaneous_turns): a first player


ALL_BY = ("agent", "deck", "seat", "play", "matchup")

REPORTS: dict[str, ReportSpec] = {
    "card_winrate": ReportSpec(
        "Per-card win rate when in the opening hand, drawn and played",
        None,
        True,
        "Per card and context, the decided seat-games with a copy in the opening hand (in hand at the end of "
        "set-up), drawn (to hand from turn 1 on: from the deck, or in Miras 9 from Resource [M9-049]; MORANA from "
        "the deck at Dawn or by an effect) or played (from hand into play), and the owner's wins; deck_games/"
        "deck_wins is the baseline: every seat-game with the card in the deck." + LENGTH,
        ALL_BY,
    ),
    "card_metrics": ReportSpec(
        "Card metrics as 17lands defines them",
        None,
        True,
        "Per card (decided seat-games, one count per game and seat however many copies): GP games with the card in "
        "the deck; OH in the opening hand; GD drawn after the opening hand (to hand from turn 1 on: Miras 9 from "
        "the Main Deck or from Resource [M9-049]; MORANA from the deck at Dawn [MOR-14] or by an effect); GIH in "
        "hand at any point (OH or GD); GNS never seen (GP minus GIH, less setup_only: seat-games whose only copy in "
        "sight was Miras 9's starting Site, chosen from the deck at set-up [M9-020], in neither group as 17lands "
        "leaves such copies out); IWD = GIH win rate - GNS win rate, shown only where both have --min-games games (a "
        "difference of two small samples is noise). Never-seen games are shorter (gns_mean_turns against "
        "gih_mean_turns), so iwd_length_matched compares GIH and GNS within each fifth of the game lengths, "
        "weighted by the fifth's GIH games. played "
        "(from hand into play) has gih_unplayed (in hand, never played) as its matched baseline; used (the card's "
        "own ability or effect happened) has unused (in the deck, never used)." + LENGTH,
        ALL_BY,
        "gp_games",
    ),
    "card_turns": ReportSpec(
        "Per card: the turn it was first played, how often, and the win rate then",
        None,
        True,
        "Per card and turn (the first turn a copy went from hand into play; 11 is eleven or later), the decided "
        "seat-games that first played it then and their wins, against deck_games/deck_wins, every seat-game with "
        "the card in its deck (the baseline); play_rate = games / deck_games with its interval. A card played on "
        "turn 9 was played in a game that lasted to turn 9:" + LENGTH,
        ALL_BY,
        "deck_games",
        proportions={"play_rate": ("games", "deck_games")},
    ),
    "first_player": ReportSpec(
        "First-player advantage against going second",
        None,
        True,
        "Per ruleset and bot pairing (agent against opponent_agent): the decided games the agent took turn 1 and "
        "its wins, beside second_games/second_wins, the same agent going second against the same opponent agent "
        "(the baseline); advantage = win_rate - second_win_rate. A pairing's rows, not a pooled rate, carry the "
        "headline: a stronger bot wins going first and second alike. Only rulesets with a first player are read: "
        "MORANA has none (both players take every turn together [MOR-13]); see site_order and initiative.",
        ("agent", "deck", "seat"),
        turn_taking=True,
    ),
    "deck_matrix": ReportSpec(
        "Deck against deck",
        None,
        True,
        "Decided games of `deck` against `opponent`, each game once from each deck's side. A mirror (same deck, "
        "and with --by agent the same agent) is reported per seat (side 'seat 0', 'seat 1'), since both sides of "
        "one game always sum to 0.5; deck_games/deck_wins is the deck's record against every opponent. Bot skill "
        "decides many games: split with --by agent.",
        ("agent", "play"),
    ),
    "game_length": ReportSpec(
        "Game length in turns and events",
        None,
        False,
        "Every game (decided or not), per ruleset, turn cap (turn_cap 0: none; games stopped at different caps "
        "are never mixed in one row) and end reason. Turns are those played: a game stopped at its cap had begun "
        "the turn after it, which it did not play, and counts the cap.",
    ),
    "decision_choices": ReportSpec(
        "What was chosen at each decision point",
        None,
        True,
        "Per decision point and option kind offered there: decisions that chose it, their share of the point's "
        "decisions, offered_decisions (those that offered it) and pick = decisions / offered_decisions with its "
        "interval (cluster-robust by game: a game's decisions are alike; pick_games games offered it), against "
        "uniform_pick (the rate choosing uniformly among the offered options would give); "
        "games it was chosen in; chosen_games/chosen_wins the decided seat-games that chose it there, "
        "declined_games/declined_wins those offered it there that never chose it (the matched baseline). Seat "
        "filters select the deciding player." + LENGTH + " weighted_chosen_*/weighted_declined_* remove that lean "
        "here: each seat-game offered the kind counts once, split between chosen and declined by the share of its "
        "decisions there that chose it, so more chances no longer make a game 'chosen'; their intervals take the "
        "summed weights as the number of games (an approximation).",
        ALL_BY,
        proportions={"pick": ("decisions", "offered_decisions")},
    ),
    "damage_payments": ReportSpec(
        "Battle Damage payment choices",
        ("miras9",),
        True,
        "Each Battle Damage point paid [M9-086] by where it was paid from, by game stage; seat filters select the "
        "payer. share_of_stage is the share of that stage's points, share_overall the same source's share of "
        "every stage's points (the baseline).",
        ALL_BY,
    ),
    "stack_depth": ReportSpec(
        "Reaction windows: response rates and stack depth",
        ("miras9",),
        False,
        "Per reaction window name: windows opened, how many got a response (response_rate, with its interval; "
        "all_response_rate over every window, the baseline), pushes, the deepest stack.",
        proportions={"response_rate": ("responded", "windows")},
    ),
    "manifest_pressure": ReportSpec(
        "Manifest and Pressure usage",
        ("miras9",),
        True,
        "Per action, decided seat-games that used it and their wins; without_games/without_wins are the seat-games "
        "that did not (the matched baseline), all_games/all_wins every seat-game." + LENGTH,
        ALL_BY,
    ),
    "slava_curves": ReportSpec(
        "Slava curves of winners and losers",
        ("morana",),
        True,
        "Mean Slava at the end of each turn for the eventual winner and loser (decided games). A game counts only "
        "for the turns it lasted: `games` is how many reached that turn and reached_share their share of all, so "
        "late turns average over fewer, longer games.",
        ALL_BY,
    ),
    "site_control": ReportSpec(
        "Site control by position",
        ("morana",),
        False,
        "Per Site (1-3, left to right), Rite scorings won by seat 0, seat 1, ties; resolved_first counts scorings "
        "where one player resolved that Site first that turn [MOR-28], [MOR-29] (not simultaneously), "
        "won_by_first those the first resolver won, first_win_rate = won_by_first / resolved_first with its Wilson "
        "interval. MORANA has no first player [MOR-13].",
        proportions={"first_win_rate": ("won_by_first", "resolved_first")},
    ),
    "site_order": ReportSpec(
        "Who resolved first at each Site, and why",
        ("morana",),
        True,
        "Per Site and reason (less_slava [MOR-28], initiative [MOR-29]), the seat-games where a player resolved "
        "that Site first at least once and how often that player won the game. The player with less Slava "
        "resolves first by rule, so the baseline is not 0.5 but expected_win_rate: the win rate that being behind "
        "by the same Slava gives (every seat at every resolution, within the split); excess = win_rate - "
        "expected_win_rate is what resolving first adds to it, if anything. all_games/all_wins is every "
        "seat-game; simultaneous resolutions have no first player and are counted in of_resolutions only." + LENGTH,
        ALL_BY,
    ),
    "reborn_timing": ReportSpec(
        "Reborn timing",
        ("morana",),
        True,
        "Per turn, Reborns committed [MOR-21], fired and never fired (committed but did not fire at Dusk), the "
        "seat-games that committed one and their wins; all_games/all_wins every decided seat-game (baseline), "
        "reached the seat-games that lasted to that turn." + LENGTH,
        ALL_BY,
    ),
    "offboard_cap": ReportSpec(
        "Off-board Slava cap hits",
        ("morana",),
        True,
        "Per turn, off-board Slava gains [MOR-31], those the +4-a-turn cap cut, Slava lost to it, seat-games hit; "
        "reached is the seat-games that lasted to that turn (the denominator).",
        ALL_BY,
        "",
    ),
    "initiative": ReportSpec(
        "Initiative held and granted",
        ("morana",),
        True,
        "Decided seat-games by turns holding Initiative [MOR-29] (capped at 3), wins and grants made; all_games/"
        "all_wins every seat-game (baseline)." + LENGTH,
        ALL_BY,
    ),
    "mulligan": ReportSpec(
        "Mulligans: how often, on which hands, and what followed",
        ("miras9",),
        True,
        "Each seat's mulligan decision [M9-021], by the Units its opening hand held when it decided: decisions, "
        "mulligans taken (take_rate with its interval), and the decided seat-games that kept (kept_games/kept_wins) "
        "against those that took one (mulligan_games/mulligan_wins). A hand is kept or sent back for what it holds, "
        "so compare the two within a row (the same hand size), not across rows; bot skill decides too: split with "
        "--by agent.",
        ALL_BY,
        "decisions",
        proportions={"take_rate": ("taken", "decisions")},
    ),
    "metagame": ReportSpec(
        "Metagame: deck archetypes' share of each event",
        None,
        False,
        "Per event (ingested event folders) and registered deck: players, their share of the field, and how many "
        "reached the top cut.",
        sample_column="",
        event_tables=True,
    ),
    "event_decks": ReportSpec(
        "Deck win rates in each event",
        None,
        False,
        "Per event and deck: decided games and wins (each game once from each side), matches and match wins. "
        "An event's field is small, so every deck is shown (--min-games N hides decks with fewer games); read "
        "the intervals before the rates.",
        min_games=0,
        event_tables=True,
    ),
    "event_standings": ReportSpec(
        "Event standings and final places",
        None,
        False,
        "Per event: final place (the cut first), Swiss rank, match points, record and the three tiebreakers "
        "(OMW%, GW%, OGW%, each with the 33% floor, byes excluded) as the event computed them.",
        sample_column="",
        event_tables=True,
    ),
}


class ReportResult(NamedTuple):
    name: str
    title: str
    sample: str
    frame: pl.DataFrame
    description: str = ""
    filters: dict[str, Any] = {}
    hidden: int = 0  # rows hidden by min_games

    def metadata(self) -> dict[str, Any]:
        """What machine-readable output carries beside the rows."""
        return {
            "report": self.name,
            "title": self.title,
            "description": self.description,
            "sample": self.sample,
            "filters": self.filters,
            "hidden_rows": self.hidden,
        }


def wilson(wins: int, n: int) -> tuple[float, float]:
    """Wilson score interval at 95% for ``wins`` successes out of ``n``."""
    if n == 0:
        return (math.nan, math.nan)
    p = wins / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return (centre - half, centre + half)


def proportion_columns(hits: str, n: str, rate: str, low: str, high: str) -> list[pl.Expr]:
    """Columns ``rate`` = ``hits`` / ``n`` and its Wilson 95% interval ``low``..``high`` (NULL where ``n`` is 0)."""
    total = pl.col(n).cast(pl.Float64)
    total = pl.when(total > 0).then(total)
    p = pl.col(hits).cast(pl.Float64) / total
    z2 = Z95**2
    denom = 1 + z2 / total
    centre = (p + z2 / (2 * total)) / denom
    half = Z95 * ((p * (1 - p) / total + z2 / (4 * total * total)).sqrt()) / denom
    return [p.round(4).alias(rate), (centre - half).round(4).alias(low), (centre + half).round(4).alias(high)]


def win_rate_columns(prefix: str = "") -> list[pl.Expr]:
    """``{prefix}win_rate``, ``{prefix}ci_low``, ``{prefix}ci_high`` (Wilson, 95%) from ``{prefix}games`` and
    ``{prefix}wins`` (NULL where there are no games)."""
    return proportion_columns(
        f"{prefix}wins", f"{prefix}games", f"{prefix}win_rate", f"{prefix}ci_low", f"{prefix}ci_high"
    )


def with_win_rate(frame: pl.DataFrame, prefix: str = "") -> pl.DataFrame:
    """The frame with ``win_rate_columns(prefix)`` added."""
    return frame.with_columns(win_rate_columns(prefix))


def without_negative_zero(frame: pl.DataFrame) -> pl.DataFrame:
    """Every float column with -0.0 (what rounding a tiny negative gives) as 0.0, so no report prints -0.0."""
    floats = [name for name, dtype in frame.schema.items() if dtype.is_float()]
    return frame.with_columns(
        pl.when(pl.col(name) == 0).then(pl.lit(0.0, dtype=frame.schema[name])).otherwise(pl.col(name)).alias(name)
        for name in floats
    )


def with_rates(frame: pl.DataFrame) -> pl.DataFrame:
    """Every ``{p}games``/``{p}wins`` pair's win rate and interval, placed right after the pair (one polars pass:
    a call per pair cost card_metrics about 15 ms)."""
    order: list[str] = []
    added: list[pl.Expr] = []
    for name in frame.columns:
        order.append(name)
        if name.endswith("wins") and f"{name[:-4]}games" in frame.columns:
            prefix = name[:-4]
            added += win_rate_columns(prefix)
            order += [f"{prefix}win_rate", f"{prefix}ci_low", f"{prefix}ci_high"]
    return frame.with_columns(added).select(order) if added else frame


def _sample(con: duckdb.DuckDBPyConnection, spec: ReportSpec, f: Filters, database: str) -> str:
    games, decided, events, rulesets, seats = sample(con)
    read = read_rulesets(spec)
    reads = "" if read is None else f" (this report reads {', '.join(read)} games only)"
    unit = f", {seats} seat-games" if spec.per_seat else ""
    where = f"; filters: {', '.join(f'{k}={v}' for k, v in f.given().items())}" if f.given() else ""
    return (
        f"sample: {games} games ({decided} decided){unit}, {events} events, rulesets: {rulesets or 'none'}{reads}"
        f"{where}; from {database}"
    )


def refuse_inapplicable(name: str, spec: ReportSpec, f: Filters, min_games: int | None) -> None:
    """Options that do not apply to the report are an error naming the ones that do."""
    if spec.event_tables:
        extra = sorted(set(f.given()) - {"ruleset", "event"})
        if extra:
            raise NotApplicableError(f"report {name!r} reads the tournament tables: only --event and --ruleset apply")
    if f.by is not None and f.by not in spec.by:
        offered = f"it splits by: {', '.join(spec.by)}" if spec.by else "it has no split"
        raise NotApplicableError(f"report {name!r} cannot be split by {f.by!r}; {offered}")
    if f.seat is not None and not spec.per_seat:
        raise NotApplicableError(f"report {name!r} is about whole games, so --seat does not apply; use --agent/--deck")
    if min_games and not spec.sample_column:  # 0 (show every row) hides nothing, so any report takes it
        raise NotApplicableError(f"report {name!r} has no games column, so --min-games {min_games} does not apply")
    rulesets = read_rulesets(spec)
    if f.ruleset is not None and rulesets is not None and f.ruleset not in rulesets:
        raise NotApplicableError(
            f"report {name!r} reads {', '.join(rulesets)} games only; --ruleset {f.ruleset} does not apply"
        )


def read_rulesets(spec: ReportSpec) -> tuple[str, ...] | None:
    """The rulesets a report reads (None: all): its own list, or for a report about the first player every known
    ruleset whose players take turns, so its sample counts none of the games it cannot read."""
    if not spec.turn_taking:
        return spec.rulesets
    return tuple(name for name in ruleset_names() if not _simultaneous(name))


def _simultaneous(ruleset: str) -> bool:
    try:
        return bool(schema_for(ruleset).simultaneous_turns)
    except (ImportError, AttributeError):  # a plugin that cannot be imported here: read it, as before
        return False


def run_report(
    con: duckdb.DuckDBPyConnection,
    name: str,
    *,
    ruleset: str | None = None,
    min_games: int | None = None,
    database: str = "",
    filters: Filters | None = None,
) -> ReportResult:
    """Run report ``name`` under ``filters`` (``ruleset`` is a shorthand for ``Filters(ruleset=...)``).

    ``min_games`` None means the report's default floor (``MIN_GAMES``; an event report's is 0); 0 shows every row.
    """
    spec = REPORTS.get(name)
    if spec is None:
        raise UnknownReportError("report", name, REPORTS)
    f = filters if filters is not None else Filters()
    if ruleset is not None:
        f = msgspec.structs.replace(f, ruleset=ruleset)
    if f.event is not None:  # by id, name or folder
        f = msgspec.structs.replace(f, event=resolve_event(con, f.event))
    check(con, f)
    refuse_inapplicable(name, spec, f, min_games)
    select(con, f, read_rulesets(spec))
    sql = sqlfiles.load(f"report_{name}")
    params = {k: v for k, v in {"ruleset": f.ruleset, "event": f.event}.items() if f"${k}" in sql}
    return finish_report(name, f, con.sql(sql, params=params).pl(), min_games, lambda: _sample(con, spec, f, database))


PAIRED = chr(31)  # between a row's split and its bot pairing in ``grp`` (``select.sql``)


def _parted(frame: pl.DataFrame, f: Filters) -> pl.DataFrame:
    """``grp`` (and ``opp_grp``) parted into the split's column (named by ``--by``; none without) and ``pairing``,
    the bot pairing the row's games were played by (``agent vs opponent agent``), unless the pairings were pooled."""
    if "grp" not in frame.columns:
        return frame
    at = frame.columns.index("grp")
    parts = pl.col("grp").str.split(PAIRED)
    split = [parts.list.get(0).alias(f.by)] if f.by else []
    pairing = [] if f.pool else [parts.list.get(1, null_on_oob=True).alias("pairing")]
    rest = [c for c in frame.columns if c not in ("grp", "opp_grp")]
    opponent = []
    if "opp_grp" in frame.columns and f.by:
        opponent = [pl.col("opp_grp").str.split(PAIRED).list.get(0).alias(f"opponent_{f.by}")]
    return frame.select([*rest[:at], *split, *pairing, *opponent, *rest[at:]])


def finish_report(
    name: str, f: Filters, rows: pl.DataFrame, min_games: int | None, sample_of: Callable[[], str]
) -> ReportResult:
    """A report's rows as its SQL gave them (from DuckDB, or Spark: ``annals.spark.reports``) made its result:
    rates and intervals, the split's names, rows under ``min_games`` hidden, its sample line."""
    spec = REPORTS[name]
    frame = with_rates(rows)
    for rate, (hits, n) in spec.proportions.items():  # the SQL holds a NULL placeholder where the rate goes
        exprs = proportion_columns(hits, n, rate, f"{rate}_ci_low", f"{rate}_ci_high")
        at = frame.columns.index(rate)
        order = [*frame.columns[:at], rate, f"{rate}_ci_low", f"{rate}_ci_high", *frame.columns[at + 1 :]]
        frame = frame.with_columns(exprs).select(order)
    if "pick_se" in frame.columns:  # decision_choices: the pick's interval is cluster-robust by game, not Wilson's
        se = pl.col("pick_se")
        low, high = (pl.col("pick") - Z95 * se).clip(0, 1), (pl.col("pick") + Z95 * se).clip(0, 1)
        frame = frame.with_columns(pick_ci_low=low.round(4), pick_ci_high=high.round(4)).drop("pick_se")
    if "expected_wins" in frame.columns:  # against what the Slava difference predicts (site_order)
        expected = (pl.col("expected_wins") / pl.when(pl.col("games") > 0).then(pl.col("games"))).round(4)
        frame = frame.with_columns(expected_win_rate=expected).with_columns(
            excess=(pl.col("win_rate") - pl.col("expected_win_rate")).round(4)
        )
    if {"win_rate", "second_win_rate"} <= set(frame.columns):  # going first against going second
        frame = frame.with_columns(advantage=(pl.col("win_rate") - pl.col("second_win_rate")).round(4))
    floor = spec.min_games if min_games is None else min_games
    if {"gih_win_rate", "gns_win_rate"} <= set(frame.columns):  # improvement when drawn (17lands' IWD)
        # a difference of two rates needs both samples: a cell of 8 games gives an IWD of noise, so none
        enough = (pl.col("gih_games") >= floor) & (pl.col("gns_games") >= floor)
        iwd = pl.when(enough).then((pl.col("gih_win_rate") - pl.col("gns_win_rate")).round(4))
        frame = frame.with_columns(iwd=iwd)
        if "iwd_length_matched" in frame.columns:
            order = [c for c in frame.columns if c not in ("iwd_length_matched", "matched_gih_games")]
            matched = pl.when(enough).then(pl.col("iwd_length_matched"))
            frame = frame.with_columns(iwd_length_matched=matched).select(
                [*order, "iwd_length_matched", "matched_gih_games"]
            )
    frame = _parted(frame, f)
    hidden = 0
    if spec.sample_column and floor:
        kept = frame.filter(pl.col(spec.sample_column).fill_null(0) >= floor)
        hidden, frame = frame.height - kept.height, kept
    frame = without_negative_zero(frame)
    sample = sample_of()
    if spec.sample_column:
        sample += (
            f"; {hidden} rows with fewer than {floor} {spec.sample_column} hidden (--min-games 0 shows them)"
            if floor
            else "; every row shown (--min-games 0)"
        )
    return ReportResult(name, spec.title, sample, frame, spec.description, f.given(), hidden)
