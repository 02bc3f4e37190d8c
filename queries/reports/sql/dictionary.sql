-- The data dictionary: tables and views of this database (column NULL) and their columns, with comments.
WITH objects AS (
    SELECT table_name AS "table", 'table' AS kind, comment FROM duckdb_tables()
    WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary
    UNION ALL
    SELECT view_name, 'view', comment FROM duckdb_views()
    WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal AND NOT temporary
)
SELECT o."table", o.kind, NULL::VARCHAR AS "column", NULL::VARCHAR AS type, o.comment, -1 AS position FROM objects o
UNION ALL
SELECT o."table", o.kind, c.column_name, c.data_type, c.comment, c.column_index
FROM objects o JOIN duckdb_columns() c
  ON c.table_name = o."table" AND c.database_name = current_database() AND c.schema_name = 'main'
ORDER BY 2, 1, 6
