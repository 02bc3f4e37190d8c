/* Reading the msgpack of a batch frame, checking each value's type, and writing JSON text as msgspec.json does,
   for ingest/_columnar.c. Anything outside what ingest meets is refused with unsupported(). Included once, by
   _columnar.c, after _columnar_buffers.h. */

#ifndef ANNALS_COLUMNAR_MSGPACK_H
#define ANNALS_COLUMNAR_MSGPACK_H

/* ---------------------------------------------------------------- reading msgpack */

typedef struct {
    const unsigned char *p, *end;
} Rd;

#define NEED(r, n) ((r)->end - (r)->p >= (Py_ssize_t)(n))

static int unsupported(const char *what) { return fail(FAIL_UNSUPPORTED, what); }

static inline uint16_t be16(const unsigned char *p) { return (uint16_t)((p[0] << 8) | p[1]); }
static inline uint32_t be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline uint64_t be64(const unsigned char *p) { return ((uint64_t)be32(p) << 32) | be32(p + 4); }

static int rd_array(Rd *r, Py_ssize_t *n) {
    if (!NEED(r, 1)) return unsupported("truncated payload");
    unsigned char b = *r->p;
    if ((b & 0xf0) == 0x90) {
        *n = b & 0x0f;
        r->p += 1;
    } else if (b == 0xdc && NEED(r, 3)) {
        *n = be16(r->p + 1);
        r->p += 3;
    } else if (b == 0xdd && NEED(r, 5)) {
        *n = be32(r->p + 1);
        r->p += 5;
    } else
        return unsupported("expected an array");
    return 0;
}

/* Any msgpack integer (not a bool); *big is set for a uint64 above INT64_MAX. */
static int rd_int(Rd *r, int64_t *v, int *big) {
    *big = 0;
    if (!NEED(r, 1)) return unsupported("truncated payload");
    unsigned char b = *r->p;
    if (b <= 0x7f) {
        *v = b;
        r->p += 1;
        return 0;
    }
    if (b >= 0xe0) {
        *v = (int8_t)b;
        r->p += 1;
        return 0;
    }
    static const int size[8] = {1, 2, 4, 8, 1, 2, 4, 8}; /* 0xcc..0xd3 */
    if (b < 0xcc || b > 0xd3) return unsupported("expected an integer");
    int n = size[b - 0xcc];
    if (!NEED(r, 1 + n)) return unsupported("truncated payload");
    const unsigned char *q = r->p + 1;
    switch (b) {
    case 0xcc: *v = q[0]; break;
    case 0xcd: *v = be16(q); break;
    case 0xce: *v = be32(q); break;
    case 0xcf: {
        uint64_t u = be64(q);
        if (u > INT64_MAX) *big = 1;
        *v = (int64_t)u;
        break;
    }
    case 0xd0: *v = (int8_t)q[0]; break;
    case 0xd1: *v = (int16_t)be16(q); break;
    case 0xd2: *v = (int32_t)be32(q); break;
    default: *v = (int64_t)be64(q);
    }
    r->p += 1 + n;
    return 0;
}

static int rd_i32(Rd *r, int32_t *v) {
    int64_t x;
    int big;
    if (rd_int(r, &x, &big) < 0) return -1;
    if (big || x < INT32_MIN || x > INT32_MAX) return unsupported("integer out of int32 range");
    *v = (int32_t)x;
    return 0;
}

/* Strict UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF), as Python decodes it. */
static int utf8_valid(const unsigned char *s, Py_ssize_t n) {
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) { /* ASCII, eight bytes at a time */
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (w & 0x8080808080808080ull) break;
    }
    while (i < n) {
        unsigned char c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        int len;
        unsigned char lo = 0x80, hi = 0xbf;
        if (c >= 0xc2 && c <= 0xdf)
            len = 2;
        else if (c >= 0xe0 && c <= 0xef) {
            len = 3;
            if (c == 0xe0) lo = 0xa0;
            if (c == 0xed) hi = 0x9f;
        } else if (c >= 0xf0 && c <= 0xf4) {
            len = 4;
            if (c == 0xf0) lo = 0x90;
            if (c == 0xf4) hi = 0x8f;
        } else
            return 0;
        if (i + len > n) return 0;
        if (s[i + 1] < lo || s[i + 1] > hi) return 0;
        for (int k = 2; k < len; k++)
            if (s[i + k] < 0x80 || s[i + k] > 0xbf) return 0;
        i += len;
    }
    return 1;
}

static int rd_str(Rd *r, const char **s, Py_ssize_t *n) {
    if (!NEED(r, 1)) return unsupported("truncated payload");
    unsigned char b = *r->p;
    Py_ssize_t len, head;
    if ((b & 0xe0) == 0xa0) {
        len = b & 0x1f;
        head = 1;
    } else if (b == 0xd9 && NEED(r, 2)) {
        len = r->p[1];
        head = 2;
    } else if (b == 0xda && NEED(r, 3)) {
        len = be16(r->p + 1);
        head = 3;
    } else if (b == 0xdb && NEED(r, 5)) {
        len = be32(r->p + 1);
        head = 5;
    } else
        return unsupported("expected a string");
    if (!NEED(r, head + len)) return unsupported("truncated payload");
    const unsigned char *p = r->p + head;
    if (!utf8_valid(p, len)) return unsupported("invalid UTF-8");
    *s = (const char *)p;
    *n = len;
    r->p += head + len;
    return 0;
}

/* ---------------------------------------------------------------- JSON text, as msgspec.json writes it */

static int json_int(Buf *out, int64_t v, int big) {
    char tmp[24], *end = tmp + sizeof tmp, *q = end;
    uint64_t u = big || v >= 0 ? (uint64_t)v : (uint64_t)0 - (uint64_t)v;
    do {
        *--q = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (!big && v < 0) *--q = '-';
    return buf_put(out, q, end - q);
}

static int json_str(Buf *out, const char *s, Py_ssize_t n) {
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == '"' || c == '\\') return unsupported("a string that JSON must escape");
    }
    if (buf_byte(out, '"') < 0 || buf_put(out, s, n) < 0) return -1;
    return buf_byte(out, '"');
}

/* Any value of the kinds ingest meets (nil, bools, integers, strings, arrays, maps with string keys). */
static int json_any(Rd *r, Buf *out, int depth) {
    if (depth > 32) return unsupported("nested too deeply");
    if (!NEED(r, 1)) return unsupported("truncated payload");
    unsigned char b = *r->p;
    if (b == 0xc0) {
        r->p++;
        return buf_put(out, "null", 4);
    }
    if (b == 0xc2 || b == 0xc3) {
        r->p++;
        return b == 0xc3 ? buf_put(out, "true", 4) : buf_put(out, "false", 5);
    }
    if (b <= 0x7f || b >= 0xe0 || (b >= 0xcc && b <= 0xd3)) {
        int64_t v;
        int big;
        if (rd_int(r, &v, &big) < 0) return -1;
        return json_int(out, v, big);
    }
    if ((b & 0xe0) == 0xa0 || (b >= 0xd9 && b <= 0xdb)) {
        const char *s;
        Py_ssize_t n;
        if (rd_str(r, &s, &n) < 0) return -1;
        return json_str(out, s, n);
    }
    if ((b & 0xf0) == 0x90 || b == 0xdc || b == 0xdd) {
        Py_ssize_t n;
        if (rd_array(r, &n) < 0 || buf_byte(out, '[') < 0) return -1;
        for (Py_ssize_t i = 0; i < n; i++)
            if ((i && buf_byte(out, ',') < 0) || json_any(r, out, depth + 1) < 0) return -1;
        return buf_byte(out, ']');
    }
    if ((b & 0xf0) == 0x80 || b == 0xde || b == 0xdf) {
        Py_ssize_t n;
        if ((b & 0xf0) == 0x80) {
            n = b & 0x0f;
            r->p += 1;
        } else if (b == 0xde && NEED(r, 3)) {
            n = be16(r->p + 1);
            r->p += 3;
        } else if (b == 0xdf && NEED(r, 5)) {
            n = be32(r->p + 1);
            r->p += 5;
        } else
            return unsupported("truncated payload");
        if (buf_byte(out, '{') < 0) return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            const char *s;
            Py_ssize_t len;
            if ((i && buf_byte(out, ',') < 0) || rd_str(r, &s, &len) < 0 || json_str(out, s, len) < 0 ||
                buf_byte(out, ':') < 0 || json_any(r, out, depth + 1) < 0)
                return -1;
        }
        return buf_byte(out, '}');
    }
    return unsupported("a float, binary or extension value");
}

#endif
