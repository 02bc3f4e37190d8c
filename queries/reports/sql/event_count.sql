-- How many events' records the database holds (why an event report can have no rows).
SELECT count(*) FROM tournaments;
