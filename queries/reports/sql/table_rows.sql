-- The number of rows of one table or view, named by $name (`annals tables`).
SELECT count(*) FROM query_table($name);
