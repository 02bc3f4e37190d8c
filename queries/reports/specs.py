"""What each named report is: its title, the rulesets it reads, whether its rows are about seats, what its numbers
mean, the splits it offers, its sample column and default floor, and its rates with their intervals. Data alone,
importing nothing heavy, so ``annals report --help`` lists the reports without loading DuckDB or polars; the SQL of
each is ``sql/report_NAME.sql`` and ``run`` runs it."""

from __future__ import annotations

from typing import NamedTuple

from annals.queries.names import MIN_GAMES

LENGTH = (
    " Length bias: longer games give every card and action more chances, so a rate conditioned on it happening "
    "leans towards long games' results; compare mean_turns with the baseline's, and control with --min-turns N."
)

REVIEWS = (
    " Reads decision_reviews: the games reviewed with `annals review LOGS --save` and ingested again; the sample "
    "says how many of the selected seat-games were. A review's chances are the search bot's estimates (more "
    "--iterations, steadier); reviews made with other iterations or thresholds are pooled."
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
    reviews: bool = False  # reads decision_reviews (the reviews ingest loaded): its sample says how many are reviewed


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
        "difference of two small samples is noise), with its 95% interval iwd_ci_low..iwd_ci_high, cluster-robust by "
        "game (a card in both decks puts both seats of a game in the sample; iwd_games games hold the card). "
        "Never-seen games are shorter (gns_mean_turns against "
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
        ("deck", "seat"),  # not agent: its rows are per agent and opponent agent already
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
    "review_accuracy": ReportSpec(
        "Decision review accuracy by deck",
        None,
        True,
        "Per deck (the deciding seat's), the reviewed seat-games (games) and decisions; accuracy, the mean over "
        "decisions of the per-decision accuracy annals review gives (Lichess's: 103.1668 * exp(-0.04354 * loss in "
        "percent) - 3.1669, 0..100); mean_loss, the mean winning chance given up; the count of each class (best, "
        "good, inaccuracies, mistakes, blunders) and wrong (inaccuracies or worse) with wrong_rate = wrong / "
        "decisions and its interval. Seat filters select the deciding seat; --by agent splits by the bot too."
        + REVIEWS,
        tuple(by for by in ALL_BY if by != "deck"),  # its rows are per deck already
        proportions={"wrong_rate": ("wrong", "decisions")},
        reviews=True,
    ),
    "review_cards": ReportSpec(
        "Decision review accuracy by the card of the choice made",
        None,
        True,
        "Which cards' decisions players get wrong most: per option kind and card of the choice made (the chosen "
        "option's card, as decisions and option_kinds hold it: MORANA's Place and Rebirth; a choice naming no "
        "card, such as sealing the Commit, is a row of its kind with no card), the reviewed seat-games (games) "
        "that made such a choice and the decisions, accuracy, mean_loss, each class's count and wrong_rate as "
        "review_accuracy. Rows are worst accuracy first. A card is chosen when it is in hand and affordable: "
        "compare cards of like cost." + REVIEWS,
        ALL_BY,
        proportions={"wrong_rate": ("wrong", "decisions")},
        reviews=True,
    ),
    "metagame": ReportSpec(
        "Metagame: deck archetypes' share of each event",
        None,
        False,
        "Per event (ingested event folders) and registered deck: players, their share of the field, and how many "
        "finished in the top (in_top): the top cut's players, or for an event without a cut the top 8 of its final "
        "standings (the whole field when it is 8 or fewer); top says how many places that is.",
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
