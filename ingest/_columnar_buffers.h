/* Growable buffers and Arrow-layout columns for ingest/_columnar.c, and failures noted without the GIL.
   Included once, by _columnar.c (static functions: one translation unit). */

#ifndef ANNALS_COLUMNAR_BUFFERS_H
#define ANNALS_COLUMNAR_BUFFERS_H

/* ---------------------------------------------------------------- failures, recorded without the GIL */

/* Frames are parsed with the GIL released (ingest threads parse while DuckDB inserts), so a failure is noted in
   the thread's own slot and raised once the GIL is held again. */
enum { FAIL_NONE, FAIL_UNSUPPORTED, FAIL_MEMORY, FAIL_OVERFLOW };
static _Thread_local int fail_kind;
static _Thread_local const char *fail_what;

static int fail(int kind, const char *what) {
    if (fail_kind == FAIL_NONE) {
        fail_kind = kind;
        fail_what = what;
    }
    return -1;
}

/* ---------------------------------------------------------------- growable buffers and columns */

typedef struct {
    char *p;
    Py_ssize_t len, cap;
} Buf;

static int buf_grow(Buf *b, Py_ssize_t extra) {
    Py_ssize_t need = b->len + extra;
    if (need <= b->cap) return 0;
    Py_ssize_t cap = b->cap ? b->cap : 4096;
    while (cap < need) cap *= 2;
    char *p = PyMem_RawRealloc(b->p, (size_t)cap);
    if (!p) return fail(FAIL_MEMORY, "out of memory");
    b->p = p;
    b->cap = cap;
    return 0;
}

static inline int buf_put(Buf *b, const void *src, Py_ssize_t n) {
    if (b->len + n > b->cap && buf_grow(b, n) < 0) return -1;
    memcpy(b->p + b->len, src, (size_t)n);
    b->len += n;
    return 0;
}

static inline int buf_byte(Buf *b, char c) {
    if (b->len + 1 > b->cap && buf_grow(b, 1) < 0) return -1;
    b->p[b->len++] = c;
    return 0;
}

enum { COL_I32, COL_I8, COL_STR, COL_LIST };

typedef struct {
    int type;
    Py_ssize_t rows, nulls;
    Buf valid;   /* bitmap, one bit per row */
    Buf values;  /* int32 / int8 values, string bytes, or the list items (int32) */
    Buf offsets; /* strings and lists: int32, rows + 1 of them */
} Col;

static int col_init(Col *c, int type) {
    memset(c, 0, sizeof *c);
    c->type = type;
    if (type == COL_STR || type == COL_LIST) {
        int32_t zero = 0;
        return buf_put(&c->offsets, &zero, 4);
    }
    return 0;
}

static void col_free(Col *c) {
    PyMem_RawFree(c->valid.p);
    PyMem_RawFree(c->values.p);
    PyMem_RawFree(c->offsets.p);
    memset(c, 0, sizeof *c);
}

/* One more row, valid or not. The bitmap is written only once the column has a null (until then every row is
   valid and Arrow needs no bitmap): the first null fills it with 1s for the rows before. */
static inline int col_bit(Col *c, int set) {
    if (set && c->nulls == 0) {
        c->rows++;
        return 0;
    }
    Py_ssize_t byte = c->rows >> 3;
    if (!set && c->nulls == 0) { /* the first null: every row so far was valid */
        Py_ssize_t have = c->valid.len;
        if (byte + 1 > have && buf_grow(&c->valid, byte + 1 - have) < 0) return -1;
        memset(c->valid.p, 0xff, (size_t)(byte + 1));
        c->valid.len = byte + 1;
    } else if (byte >= c->valid.len) {
        if (buf_byte(&c->valid, 0) < 0) return -1;
    }
    unsigned char mask = (unsigned char)(1u << (c->rows & 7));
    if (set)
        c->valid.p[byte] = (char)((unsigned char)c->valid.p[byte] | mask);
    else
        c->valid.p[byte] = (char)((unsigned char)c->valid.p[byte] & (unsigned char)~mask);
    c->rows++;
    return 0;
}

static int col_end_offset(Col *c) {
    Py_ssize_t end = c->values.len;
    if (c->type == COL_LIST) end /= 4;
    if (end > INT32_MAX) return fail(FAIL_OVERFLOW, "a column of the chunk holds more than 2 GiB; use smaller chunks");
    int32_t off = (int32_t)end;
    return buf_put(&c->offsets, &off, 4);
}

static int col_null(Col *c) {
    switch (c->type) {
    case COL_I32: {
        int32_t z = 0;
        if (buf_put(&c->values, &z, 4) < 0) return -1;
        break;
    }
    case COL_I8:
        if (buf_byte(&c->values, 0) < 0) return -1;
        break;
    default:
        if (col_end_offset(c) < 0) return -1;
    }
    if (col_bit(c, 0) < 0) return -1;
    c->nulls++;
    return 0;
}

static inline int col_i32(Col *c, int32_t v) {
    if (buf_put(&c->values, &v, 4) < 0) return -1;
    return col_bit(c, 1);
}

static inline int col_i8(Col *c, int8_t v) {
    if (buf_byte(&c->values, (char)v) < 0) return -1;
    return col_bit(c, 1);
}

static inline int col_str(Col *c, const char *s, Py_ssize_t n) {
    if (buf_put(&c->values, s, n) < 0 || col_end_offset(c) < 0) return -1;
    return col_bit(c, 1);
}

/* A string or list row whose bytes were written into c->values directly. */
static inline int col_close(Col *c) {
    if (col_end_offset(c) < 0) return -1;
    return col_bit(c, 1);
}

/* Back to the first `rows` rows, dropping whatever was written after them: later rows, and the bytes of a row
   whose parse stopped half-way (a string's or list's values written, its end offset not). */
static void col_truncate(Col *c, Py_ssize_t rows) {
    if (rows > c->rows) return;
    if (rows < c->rows && c->nulls) { /* recount the nulls of the rows kept */
        Py_ssize_t nulls = 0;
        for (Py_ssize_t i = 0; i < rows; i++)
            if (!((unsigned char)c->valid.p[i >> 3] & (1u << (i & 7)))) nulls++;
        c->nulls = nulls;
    }
    Py_ssize_t nulls = c->nulls;
    c->rows = rows;
    c->valid.len = nulls ? (rows + 7) >> 3 : 0;
    switch (c->type) {
    case COL_I32:
        c->values.len = rows * 4;
        break;
    case COL_I8:
        c->values.len = rows;
        break;
    default: {
        int32_t end;
        memcpy(&end, c->offsets.p + rows * 4, 4);
        c->offsets.len = (rows + 1) * 4;
        c->values.len = c->type == COL_LIST ? (Py_ssize_t)end * 4 : (Py_ssize_t)end;
    }
    }
}

#endif
