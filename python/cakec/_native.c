/* The fast call in C (python/cakec/_native.py builds this file into an
 * extension module, once per Python and per version of this file).
 *
 * A FastCall is one launcher's call on torch tensors: it reads each
 * argument's fields through the tensor's own accessors (data_ptr, shape,
 * stride, dtype, get_device), writes them into a buffer on its stack in the
 * layout of the launcher's cakec_py_NAME entry point (python/cakec/_fast.py's
 * `layout`: a tensor is a whole cake_tensor of 96 bytes, a workspace its
 * pointer and bytes, a scalar an 8-byte slot, the stream last), and calls that
 * entry point, the GIL released meanwhile.
 * Anything it does not take as the generated Python call would (an exact
 * torch.Tensor of the declared rank on the current CUDA device, a scalar of
 * its exact Python type in range) goes to `general(args, stream)`, which
 * describes every kind of tensor and explains each refusal; a launcher's
 * refusal goes to `fail(code)`, which raises CakeError. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#define MAX_RANK 5
#define TENSOR_BYTES 96
#define MAX_BYTES 4096

typedef int (*entry_fn)(const unsigned char *);

/* A parameter's kind, as _native.py's `spec` gives it. */
enum { P_TENSOR = 0, P_WORKSPACE = 1, P_INT = 2, P_FLOAT = 3, P_DOUBLE = 4, P_F16 = 5, P_BF16 = 6 };

typedef struct {
  int kind;
  int rank;  /* tensors */
  int width; /* integers: the C type's bytes */
  long long lo, hi;
} Param;

typedef struct {
  PyObject_HEAD vectorcallfunc vectorcall;
  entry_fn entry;
  Py_ssize_t nparams;
  Param *params;
  size_t bytes;
  PyObject *tensor_type, *codes, *raw_stream, *cur_device, *general, *fail, *name;
} FastCall;

static PyObject *s_is_cuda, *s_get_device, *s_shape, *s_stride, *s_data_ptr, *s_dtype, *s_is_contiguous, *s_nbytes,
    *s_cuda_stream, *s_stream;

/* 1: the value; 0: not this path's (a Python error, if any, cleared by the caller). */
static int as_i64(PyObject *o, long long *out) {
  if (!o || !PyLong_Check(o)) return 0;
  int overflow = 0;
  *out = PyLong_AsLongLongAndOverflow(o, &overflow);
  return !overflow && !(*out == -1 && PyErr_Occurred());
}

static int call_i64(PyObject *self, PyObject *name, long long *out) {
  PyObject *args[1] = {self};
  PyObject *r = PyObject_VectorcallMethod(name, args, 1, NULL);
  int ok = as_i64(r, out);
  Py_XDECREF(r);
  return ok;
}

static int attr_true(PyObject *o, PyObject *name) {
  PyObject *r = PyObject_GetAttr(o, name);
  int ok = r == Py_True;
  Py_XDECREF(r);
  return ok;
}

/* A tuple of `rank` integers (torch.Size is a tuple) into out[0..rank). */
static int ints_of(PyObject *t, int rank, long long *out) {
  if (!t || !PyTuple_Check(t) || PyTuple_GET_SIZE(t) != rank) return 0;
  for (int i = 0; i < rank; ++i)
    if (!as_i64(PyTuple_GET_ITEM(t, i), &out[i])) return 0;
  return 1;
}

/* The tensor's device index (>= 0), or -1 where it is not an exact torch
 * tensor on a CUDA device. */
static long long cuda_device(FastCall *f, PyObject *t) {
  long long d;
  if ((PyObject *)Py_TYPE(t) != f->tensor_type || !attr_true(t, s_is_cuda) || !call_i64(t, s_get_device, &d)) return -1;
  return d;
}

static int pack_tensor(FastCall *f, PyObject *t, int rank, unsigned char *p) {
  long long shape[MAX_RANK], stride[MAX_RANK], ptr;
  PyObject *s = PyObject_GetAttr(t, s_shape);
  int ok = ints_of(s, rank, shape);
  Py_XDECREF(s);
  if (!ok) return 0;
  PyObject *args[1] = {t};
  s = PyObject_VectorcallMethod(s_stride, args, 1, NULL);
  ok = ints_of(s, rank, stride);
  Py_XDECREF(s);
  if (!ok || !call_i64(t, s_data_ptr, &ptr)) return 0;
  PyObject *dt = PyObject_GetAttr(t, s_dtype);
  if (!dt) return 0;
  PyObject *code = PyDict_GetItemWithError(f->codes, dt); /* borrowed */
  Py_DECREF(dt);
  long long c;
  if (!as_i64(code, &c)) return 0;
  memset(p, 0, TENSOR_BYTES);
  memcpy(p, &ptr, 8);
  memcpy(p + 8, shape, 8 * (size_t)rank);
  memcpy(p + 8 + 8 * MAX_RANK, stride, 8 * (size_t)rank);
  int32_t r32 = rank, c32 = (int32_t)c;
  memcpy(p + 8 + 16 * MAX_RANK, &r32, 4);
  memcpy(p + 12 + 16 * MAX_RANK, &c32, 4);
  return 1;
}

static int pack_workspace(PyObject *t, unsigned char *p) {
  long long ptr, bytes;
  PyObject *args[1] = {t};
  PyObject *r = PyObject_VectorcallMethod(s_is_contiguous, args, 1, NULL);
  int contiguous = r == Py_True;
  Py_XDECREF(r);
  if (!contiguous || !call_i64(t, s_data_ptr, &ptr)) return 0;
  r = PyObject_GetAttr(t, s_nbytes);
  int ok = as_i64(r, &bytes) && bytes >= 0;
  Py_XDECREF(r);
  if (!ok) return 0;
  memcpy(p, &ptr, 8);
  memcpy(p + 8, &bytes, 8);
  return 1;
}

/* A Python number as a double: exact floats and ints only (as the generated
 * Python call takes them). */
static int number(PyObject *o, double *out) {
  if (PyFloat_CheckExact(o)) {
    *out = PyFloat_AS_DOUBLE(o);
    return 1;
  }
  if (PyLong_CheckExact(o)) {
    *out = PyLong_AsDouble(o);
    return !(*out == -1.0 && PyErr_Occurred());
  }
  return 0;
}

static int pack_scalar(const Param *p, PyObject *o, unsigned char *slot) {
  memset(slot, 0, 8);
  if (p->kind == P_INT) {
    long long v;
    if (!PyLong_CheckExact(o) || !as_i64(o, &v) || v < p->lo || v > p->hi) return 0;
    memcpy(slot, &v, (size_t)p->width); /* little-endian: the low bytes */
    return 1;
  }
  double x;
  if (!number(o, &x)) return 0;
  if (p->kind == P_DOUBLE) {
    memcpy(slot, &x, 8);
    return 1;
  }
  if (isfinite(x) && fabs(x) > FLT_MAX) return 0; /* struct's 'f' refuses it: the general call says so */
  float v = (float)x;
  if (p->kind == P_FLOAT) {
    memcpy(slot, &v, 4);
    return 1;
  }
  uint16_t bits;
  if (p->kind == P_F16) {
#if PY_VERSION_HEX >= 0x030B0000
    if (PyFloat_Pack2(x, (char *)&bits, 1) < 0) return 0;
#else
    if (_PyFloat_Pack2(x, (unsigned char *)&bits, 1) < 0) return 0;
#endif
  } else { /* bf16: f32 rounded to nearest even; a NaN stays quiet */
    uint32_t u;
    memcpy(&u, &v, 4);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x7FFFFFu))
      bits = 0x7FC0;
    else
      bits = (uint16_t)(((uint64_t)u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
  }
  memcpy(slot, &bits, 2);
  return 1;
}

static PyObject *slow(FastCall *f, PyObject *const *args, Py_ssize_t nargs, PyObject *stream) {
  PyErr_Clear();
  PyObject *tuple = PyTuple_New(nargs);
  if (!tuple) return NULL;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    Py_INCREF(args[i]);
    PyTuple_SET_ITEM(tuple, i, args[i]);
  }
  PyObject *r = PyObject_CallFunctionObjArgs(f->general, tuple, stream ? stream : Py_None, NULL);
  Py_DECREF(tuple);
  return r;
}

static PyObject *fastcall_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  FastCall *f = (FastCall *)self;
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  PyObject *stream = NULL;
  if (kwnames) {
    Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nk; ++i) {
      PyObject *k = PyTuple_GET_ITEM(kwnames, i);
      if (PyUnicode_Compare(k, s_stream) != 0) {
        if (!PyErr_Occurred())
          PyErr_Format(PyExc_TypeError, "%U() got an unexpected keyword argument '%U'", f->name, k);
        return NULL;
      }
      stream = args[nargs + i];
    }
  }
  if (stream == Py_None) stream = NULL;
  if (nargs != f->nparams) return slow(f, args, nargs, stream);
  unsigned char buf[MAX_BYTES];
  size_t off = 0;
  long long dev = -1;
  for (Py_ssize_t i = 0; i < nargs; ++i) {
    const Param *p = &f->params[i];
    if (p->kind == P_TENSOR || p->kind == P_WORKSPACE) {
      long long d = cuda_device(f, args[i]);
      if (d < 0 || (dev >= 0 && d != dev)) return slow(f, args, nargs, stream);
      dev = d;
      if (p->kind == P_TENSOR ? !pack_tensor(f, args[i], p->rank, buf + off) : !pack_workspace(args[i], buf + off))
        return slow(f, args, nargs, stream);
      off += p->kind == P_TENSOR ? TENSOR_BYTES : 16;
    } else {
      if (!pack_scalar(p, args[i], buf + off)) return slow(f, args, nargs, stream);
      off += 8;
    }
  }
  long long cur, s;
  PyObject *r = PyObject_CallNoArgs(f->cur_device);
  int ok = as_i64(r, &cur) && cur == dev;
  Py_XDECREF(r);
  if (!ok) return slow(f, args, nargs, stream);
  if (stream) {
    r = PyObject_GetAttr(stream, s_cuda_stream);
    if (!r) {
      PyErr_Clear();
      Py_INCREF(stream);
      r = stream;
    }
  } else {
    PyObject *d = PyLong_FromLongLong(dev);
    r = d ? PyObject_CallOneArg(f->raw_stream, d) : NULL;
    Py_XDECREF(d);
  }
  ok = as_i64(r, &s) && s >= 0;
  Py_XDECREF(r);
  if (!ok) return slow(f, args, nargs, stream);
  memcpy(buf + off, &s, 8);
  int rc;
  /* The buffer is this call's own: other threads may run meanwhile (a
   * launcher built with -fcheck-waits waits for its kernel). */
  PyThreadState *saved = PyEval_SaveThread();
  rc = f->entry(buf);
  PyEval_RestoreThread(saved);
  if (rc != 0) {
    PyObject *code = PyLong_FromLong(rc);
    if (!code) return NULL;
    r = PyObject_CallOneArg(f->fail, code); /* raises CakeError */
    Py_DECREF(code);
    if (r) {
      Py_DECREF(r);
      PyErr_Format(PyExc_RuntimeError, "%U: the launcher returned %d", f->name, rc);
    }
    return NULL;
  }
  Py_RETURN_NONE;
}

static void fastcall_dealloc(PyObject *self) {
  FastCall *f = (FastCall *)self;
  PyMem_Free(f->params);
  Py_XDECREF(f->tensor_type);
  Py_XDECREF(f->codes);
  Py_XDECREF(f->raw_stream);
  Py_XDECREF(f->cur_device);
  Py_XDECREF(f->general);
  Py_XDECREF(f->fail);
  Py_XDECREF(f->name);
  Py_TYPE(self)->tp_free(self);
}

static PyObject *fastcall_repr(PyObject *self) {
  return PyUnicode_FromFormat("<cakec native call %U>", ((FastCall *)self)->name);
}

/* FastCall(name, entry, spec, tensor_type, codes, raw_stream, cur_device, general, fail)
 * spec: a tuple of (kind, rank or width, lo, hi) per parameter. */
static PyObject *fastcall_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  PyObject *name, *spec, *tensor_type, *codes, *raw, *cur, *general, *fail;
  unsigned long long entry;
  if (kw && PyDict_GET_SIZE(kw)) {
    PyErr_SetString(PyExc_TypeError, "FastCall takes no keyword arguments");
    return NULL;
  }
  if (!PyArg_ParseTuple(args, "UKO!OO!OOOO:FastCall", &name, &entry, &PyTuple_Type, &spec, &tensor_type, &PyDict_Type,
                        &codes, &raw, &cur, &general, &fail))
    return NULL;
  if (!entry) {
    PyErr_SetString(PyExc_ValueError, "FastCall: a null entry point");
    return NULL;
  }
  Py_ssize_t n = PyTuple_GET_SIZE(spec);
  Param *params = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Param));
  if (!params) return PyErr_NoMemory();
  size_t bytes = 8; /* the stream */
  for (Py_ssize_t i = 0; i < n; ++i) {
    Param *p = &params[i];
    if (!PyArg_ParseTuple(PyTuple_GET_ITEM(spec, i), "iiLL", &p->kind, &p->rank, &p->lo, &p->hi)) {
      PyMem_Free(params);
      return NULL;
    }
    p->width = p->kind == P_INT ? p->rank : 0;
    int bad = p->kind < P_TENSOR || p->kind > P_BF16 || (p->kind == P_TENSOR && (p->rank < 1 || p->rank > MAX_RANK)) ||
              (p->kind == P_INT && p->width != 1 && p->width != 2 && p->width != 4 && p->width != 8);
    if (bad) {
      PyMem_Free(params);
      PyErr_Format(PyExc_ValueError, "FastCall: parameter %zd: a spec this module does not take", i);
      return NULL;
    }
    bytes += p->kind == P_TENSOR ? TENSOR_BYTES : p->kind == P_WORKSPACE ? 16 : 8;
  }
  if (bytes > MAX_BYTES) {
    PyMem_Free(params);
    PyErr_Format(PyExc_ValueError, "FastCall: %zu bytes of arguments; at most %d", bytes, MAX_BYTES);
    return NULL;
  }
  FastCall *f = (FastCall *)type->tp_alloc(type, 0);
  if (!f) {
    PyMem_Free(params);
    return NULL;
  }
  f->vectorcall = fastcall_vectorcall;
  f->entry = (entry_fn)(uintptr_t)entry;
  f->nparams = n;
  f->params = params;
  f->bytes = bytes;
  PyObject *held[] = {tensor_type, codes, raw, cur, general, fail, name};
  for (int i = 0; i < 7; ++i) Py_INCREF(held[i]);
  f->tensor_type = tensor_type, f->codes = codes, f->raw_stream = raw, f->cur_device = cur;
  f->general = general, f->fail = fail, f->name = name;
  return (PyObject *)f;
}

static PyMemberDef fastcall_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(FastCall, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyTypeObject FastCallType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "_cakec_native.FastCall",
    .tp_basicsize = sizeof(FastCall),
    .tp_dealloc = fastcall_dealloc,
    .tp_repr = fastcall_repr,
    .tp_call = PyVectorcall_Call,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "One launcher's call on torch tensors (python/cakec/_native.c).",
    .tp_new = fastcall_new,
    .tp_members = fastcall_members,
    .tp_vectorcall_offset = offsetof(FastCall, vectorcall),
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_cakec_native",
    .m_doc = "cakec's fast call in C (python/cakec/_native.c).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__cakec_native(void) {
  const char *names[] = {"is_cuda", "get_device",    "shape",  "stride",      "data_ptr",
                         "dtype",   "is_contiguous", "nbytes", "cuda_stream", "stream"};
  PyObject **slots[] = {&s_is_cuda, &s_get_device,    &s_shape,  &s_stride,      &s_data_ptr,
                        &s_dtype,   &s_is_contiguous, &s_nbytes, &s_cuda_stream, &s_stream};
  for (int i = 0; i < 10; ++i)
    if (!(*slots[i] = PyUnicode_InternFromString(names[i]))) return NULL;
  if (PyType_Ready(&FastCallType) < 0) return NULL;
  PyObject *m = PyModule_Create(&module);
  if (!m) return NULL;
  Py_INCREF(&FastCallType);
  if (PyModule_AddObject(m, "FastCall", (PyObject *)&FastCallType) < 0) {
    Py_DECREF(&FastCallType);
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
