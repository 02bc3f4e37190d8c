-- The decisions of one game (by its dense key), in order: where each was asked, by whom, and the index chosen.
SELECT n, at_event, player, point, n_offered, chosen FROM decisions WHERE game = ? ORDER BY n
