-- View columns of this database left without a comment by comments.sql, with the comment of the same-named column
-- of the table they are read from (events first, else the first table alphabetically that has one).
SELECT v.table_name, v.column_name, any_value(t.comment ORDER BY (t.table_name <> 'events'), t.table_name) AS text
FROM duckdb_columns() v
JOIN duckdb_views() w ON w.view_name = v.table_name AND w.database_name = v.database_name AND w.schema_name = 'main'
JOIN duckdb_columns() t ON t.column_name = v.column_name AND t.database_name = v.database_name
JOIN duckdb_tables() b ON b.table_name = t.table_name AND b.database_name = t.database_name AND b.schema_name = 'main'
WHERE NOT w.internal AND v.database_name = current_database() AND v.schema_name = 'main'
  AND (v.comment IS NULL OR v.comment = '') AND t.comment IS NOT NULL AND t.comment <> ''
GROUP BY ALL
