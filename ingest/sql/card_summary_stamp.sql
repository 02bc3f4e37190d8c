-- What card_summary was derived from, in one row (ingest.summary.refresh_card_summary stores it in card_summary_stamp):
-- the games with their result, length and first player, and the seats with their agent and deck. A report reads
-- card_summary only while the database still gives the same row; a change it does not know of (an UPDATE, a
-- migration, a removed game) sends the report back to card_facts until the summary is derived again.
SELECT (SELECT count(*) FROM games) AS games,
       (SELECT bit_xor(hash(game, ruleset, event, winner, turns, first_player)) FROM games) AS games_hash,
       (SELECT count(*) FROM players) AS seats,
       (SELECT bit_xor(hash(game, seat, agent, deck)) FROM players) AS seats_hash,
       (SELECT count(*) FROM card_facts) AS facts
