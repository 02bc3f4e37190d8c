-- What the database holds (`annals tables`): every table and view with its number of columns, then the table
-- macros with their parameters; the rows of each table and view are counted by table_rows.sql.
SELECT t.table_name AS name,
       CASE t.table_type WHEN 'VIEW' THEN 'view' ELSE 'table' END AS kind,
       (SELECT count(*) FROM information_schema.columns c
        WHERE c.table_schema = t.table_schema AND c.table_name = t.table_name) AS columns,
       '' AS parameters
FROM information_schema.tables t
WHERE t.table_schema = 'main'
UNION ALL
SELECT DISTINCT function_name, 'macro', NULL, array_to_string(parameters, ', ')
FROM duckdb_functions()
WHERE function_type = 'table_macro' AND NOT internal AND schema_name = 'main'
ORDER BY CASE kind WHEN 'table' THEN 0 WHEN 'view' THEN 1 ELSE 2 END, name;
