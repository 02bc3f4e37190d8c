-- Whether the connection's database is read-only (queries/reports/filters.py keeps selections on such a connection only).
SELECT readonly FROM duckdb_databases() WHERE database_name = current_database();
