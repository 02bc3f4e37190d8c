/* The frame layer of ``schemas/logfile.py`` in C: the per-frame work of reading and writing a log (the header's
 * fields and CRC-32, the XXH3-128 chain digest), which in Python costs a few microseconds a frame in calls, slices
 * and struct unpacking around a hash that itself takes a fraction of that. Included by ``_framecheck.c`` (one
 * extension module); ``logfile.py`` keeps the Python frame layer as the reference (``ANNALS_PURE_PYTHON=1``, or no
 * compiler) and ``tests/test_framelayer.py`` holds the two to the same frames, digests and named errors.
 *
 * A frame: 'F' | kind (u8) | index (u32 LE) | length (u32 LE) | CRC-32 of those 10 bytes (u32 LE), the payload, then
 * the chain digest XXH3-128(previous digest | frame header | payload), in the canonical (big-endian) byte order the
 * Python ``xxhash`` package's ``digest()`` gives. */
#ifndef ANNALS_FRAMELAYER_H
#define ANNALS_FRAMELAYER_H

#include <Python.h>
#include <stdint.h>
#include <string.h>

#define XXH_INLINE_ALL /* xxHash 0.8.3, vendored unmodified (BSD 2-Clause, its licence at the top of xxhash.h) */
#include "xxhash.h"

#define FL_HEAD 14   /* 'F', kind, index, length, CRC */
#define FL_CRCED 10  /* the bytes the CRC covers */
#define FL_DIGEST 16

/* What stopped a scan, in the order the reference checks a frame (``LogReader._next_frame``); logfile.py turns each
 * into the same named error the reference raises. */
enum { FL_TORN_HEAD = 0, FL_BAD_HEAD = 1, FL_TOO_LONG = 2, FL_BAD_INDEX = 3, FL_TORN_BODY = 4, FL_BAD_DIGEST = 5 };

/* CRC-32 as zlib computes it (reflected, polynomial 0xEDB88320, all ones in and out): ``zlib.crc32`` of the 10
 * header bytes. A table, not zlib itself, so the extension links against nothing. */
static uint32_t fl_crc_table[256];

static void fl_crc_init(void) {
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        fl_crc_table[i] = c;
    }
}

static inline uint32_t fl_crc32(const unsigned char *p, size_t n) {
    uint32_t c = 0xFFFFFFFFu;
    while (n--) c = fl_crc_table[(c ^ *p++) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static inline uint32_t fl_u32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline void fl_put_u32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v, p[1] = (unsigned char)(v >> 8), p[2] = (unsigned char)(v >> 16),
    p[3] = (unsigned char)(v >> 24);
}

/* The chain digest of a frame (header and payload at ``frame``, ``size`` bytes) after ``link``. */
static inline void fl_chain(const unsigned char *link, const unsigned char *frame, size_t size,
                            unsigned char out[FL_DIGEST]) {
    XXH3_state_t state;
    XXH3_128bits_reset(&state);
    XXH3_128bits_update(&state, link, FL_DIGEST);
    XXH3_128bits_update(&state, frame, size);
    XXH128_canonical_t canonical;
    XXH128_canonicalFromHash(&canonical, XXH3_128bits_digest(&state));
    memcpy(out, canonical.digest, FL_DIGEST);
}

/* scan(data, offset, index, link, frames, max_length) -> (frames, offset, index, link, problem)
 *
 * Verifies up to ``frames`` frames of ``data`` from byte ``offset``, the first numbered ``index`` and chained after
 * ``link`` (16 bytes), as the reference does one frame at a time. Returns each verified frame as (kind, offset,
 * length, digest), where it stopped (the byte offset, frame index and chain digest after the last verified frame)
 * and why: None at the end of the data or after ``frames`` frames, else (what, offset, value) with ``what`` one of
 * the FL_ codes above and ``value`` the frame's length (FL_TOO_LONG) or its index (FL_BAD_INDEX). */
static PyObject *fl_scan(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Py_buffer data, link;
    if (nargs != 6 || PyObject_GetBuffer(args[0], &data, PyBUF_SIMPLE) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "scan(data, offset, index, link, frames, max_length)");
        return NULL;
    }
    PyObject *result = NULL, *found = NULL;
    if (PyObject_GetBuffer(args[3], &link, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&data);
        return NULL;
    }
    Py_ssize_t at = PyLong_AsSsize_t(args[1]), limit = PyLong_AsSsize_t(args[4]);
    long long index = PyLong_AsLongLong(args[2]), max_length = PyLong_AsLongLong(args[5]);
    if (PyErr_Occurred()) goto done;
    if (link.len != FL_DIGEST || at < 0 || at > data.len) {
        PyErr_SetString(PyExc_ValueError, "scan: a 16-byte link and an offset inside the data");
        goto done;
    }
    found = PyList_New(0);
    if (found == NULL) goto done;
    const unsigned char *base = data.buf;
    unsigned char chain[FL_DIGEST];
    memcpy(chain, link.buf, FL_DIGEST);
    Py_ssize_t end = data.len;
    int what = -1;
    long long value = 0;
    for (Py_ssize_t done = 0; done < limit && at < end; done++) {
        const unsigned char *head = base + at;
        if (end - at < FL_HEAD) {
            what = FL_TORN_HEAD;
            break;
        }
        uint32_t length = fl_u32(head + 6);
        if (head[0] != 'F' || fl_u32(head + FL_CRCED) != fl_crc32(head, FL_CRCED)) {
            what = FL_BAD_HEAD;
            break;
        }
        if ((long long)length > max_length) {
            what = FL_TOO_LONG, value = length;
            break;
        }
        if ((long long)fl_u32(head + 2) != index) {
            what = FL_BAD_INDEX, value = fl_u32(head + 2);
            break;
        }
        if (end - at - FL_HEAD < (Py_ssize_t)length + FL_DIGEST) {
            what = FL_TORN_BODY;
            break;
        }
        unsigned char digest[FL_DIGEST];
        fl_chain(chain, head, FL_HEAD + (size_t)length, digest);
        if (memcmp(digest, head + FL_HEAD + length, FL_DIGEST) != 0) {
            what = FL_BAD_DIGEST;
            break;
        }
        PyObject *item = Py_BuildValue("(inIy#)", head[1], at, length, (const char *)digest, (Py_ssize_t)FL_DIGEST);
        if (item == NULL || PyList_Append(found, item) < 0) {
            Py_XDECREF(item);
            goto done;
        }
        Py_DECREF(item);
        memcpy(chain, digest, FL_DIGEST);
        at += FL_HEAD + (Py_ssize_t)length + FL_DIGEST;
        index++;
    }
    if (what < 0)
        result = Py_BuildValue("(OnLy#O)", found, at, index, (const char *)chain, (Py_ssize_t)FL_DIGEST, Py_None);
    else
        result = Py_BuildValue("(OnLy#(inL))", found, at, index, (const char *)chain, (Py_ssize_t)FL_DIGEST, what, at,
                               value);
done:
    Py_XDECREF(found);
    PyBuffer_Release(&link);
    PyBuffer_Release(&data);
    return result;
}

/* heads(data, offset, max_length) -> (kinds, judges)
 *
 * The reference's walk over the frame headers (``LogReader._walk``), unverified: each frame's kind byte from
 * ``offset`` on, and the (position in kinds, payload start, payload end) of every judge frame ('J') for the caller
 * to decode; stops quietly at a torn header, a bad marker or an absurd length, as the reference does. */
static PyObject *fl_heads(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    Py_buffer data;
    if (nargs != 3 || PyObject_GetBuffer(args[0], &data, PyBUF_SIMPLE) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "heads(data, offset, max_length)");
        return NULL;
    }
    PyObject *result = NULL, *judges = NULL, *kinds = NULL;
    Py_ssize_t at = PyLong_AsSsize_t(args[1]);
    long long max_length = PyLong_AsLongLong(args[2]);
    if (PyErr_Occurred()) goto done;
    if (at < 0) {
        PyErr_SetString(PyExc_ValueError, "heads: a negative offset");
        goto done;
    }
    judges = PyList_New(0);
    /* at most one kind per FL_HEAD + FL_DIGEST bytes */
    Py_ssize_t room = at < data.len ? (data.len - at) / (FL_HEAD + FL_DIGEST) + 1 : 0;
    kinds = PyBytes_FromStringAndSize(NULL, room);
    if (judges == NULL || kinds == NULL) goto done;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(kinds);
    const unsigned char *base = data.buf;
    Py_ssize_t count = 0;
    while (at <= data.len - FL_HEAD) {
        const unsigned char *head = base + at;
        uint32_t length = fl_u32(head + 6);
        if (head[0] != 'F' || (long long)length > max_length) break;
        Py_ssize_t start = at + FL_HEAD, stop = start + (Py_ssize_t)length;
        if (head[1] == 'J') {
            PyObject *item = Py_BuildValue("(nnn)", count, start, stop < data.len ? stop : data.len);
            if (item == NULL || PyList_Append(judges, item) < 0) {
                Py_XDECREF(item);
                goto done;
            }
            Py_DECREF(item);
        }
        out[count++] = head[1];
        at = stop + FL_DIGEST;
    }
    if (_PyBytes_Resize(&kinds, count) < 0) goto done;
    result = Py_BuildValue("(OO)", kinds, judges);
done:
    Py_XDECREF(kinds);
    Py_XDECREF(judges);
    PyBuffer_Release(&data);
    return result;
}

/* seal(buffer, start, kind, index, link) -> digest
 *
 * The writer's framing of a frame whose payload was encoded into ``buffer`` (a bytearray) after FL_HEAD bytes left
 * free at ``start``, up to its end: the header (kind, index, the payload's length) and its CRC written into those
 * bytes, and the chain digest after ``link`` appended; returns the digest. */
static PyObject *fl_seal(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5 || !PyByteArray_CheckExact(args[0])) {
        PyErr_SetString(PyExc_TypeError, "seal(buffer, start, kind, index, link): a bytearray first");
        return NULL;
    }
    PyObject *buffer = args[0];
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    long kind = PyLong_AsLong(args[2]);
    unsigned long long index = PyLong_AsUnsignedLongLong(args[3]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer link;
    if (PyObject_GetBuffer(args[4], &link, PyBUF_SIMPLE) < 0) return NULL;
    Py_ssize_t size = PyByteArray_GET_SIZE(buffer);
    if (link.len != FL_DIGEST || start < 0 || size - start < FL_HEAD || size - start - FL_HEAD > UINT32_MAX ||
        kind < 0 || kind > 255 || index > UINT32_MAX) {
        PyBuffer_Release(&link);
        PyErr_SetString(PyExc_ValueError, "seal: a 16-byte link, a frame's room in the buffer, a byte kind, a u32 index");
        return NULL;
    }
    unsigned char chain[FL_DIGEST];
    memcpy(chain, link.buf, FL_DIGEST);
    PyBuffer_Release(&link);
    if (PyByteArray_Resize(buffer, size + FL_DIGEST) < 0) return NULL;
    unsigned char *head = (unsigned char *)PyByteArray_AS_STRING(buffer) + start;
    head[0] = 'F', head[1] = (unsigned char)kind;
    fl_put_u32(head + 2, (uint32_t)index);
    fl_put_u32(head + 6, (uint32_t)(size - start - FL_HEAD));
    fl_put_u32(head + FL_CRCED, fl_crc32(head, FL_CRCED));
    fl_chain(chain, head, (size_t)(size - start), head + (size - start));
    return PyBytes_FromStringAndSize((const char *)head + (size - start), FL_DIGEST);
}

#endif
