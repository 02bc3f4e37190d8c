-- Each seat of one game (by its dense key): who played it and with which deck.
SELECT seat, name, agent, deck, leader FROM players WHERE game = ? ORDER BY seat
