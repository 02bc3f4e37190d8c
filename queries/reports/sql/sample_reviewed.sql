-- The reviewed part of a review report's sample: the selected seat-games with a decision review, and their decisions.
SELECT count(DISTINCT r.game * 2 + r.seat) AS seat_games, count(*) AS decisions
FROM decision_reviews r SEMI JOIN sel_seats s ON s.game = r.game AND s.seat = r.seat;
