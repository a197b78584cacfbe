// dlib and the BLAS and LAPACK under it, loaded by their sonames when the first detector or tracker is made,
// so a process that looks for no face does not load them and the LAPACK and Fortran libraries
// they bring (some 3 ms at every start).
//
// dlib's detectors are header templates compiled into face_detection.cpp; what they need from
// libdlib itself is the decoder of the detector's built-in model (base64 and an entropy decoder),
// and from BLAS and LAPACK six routines. Each of those symbols is defined here, under its own (for dlib's
// classes, Itanium-mangled) name, as a function that calls the library's definition through the
// pointer found. A symbol the headers start to need and this file does not define fails the link,
// not a run.
#include "CFaceDetection.h"

#if LAVF_FACE_DETECTION

#include "CLibraryLoading.h"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/// dlib's member functions as C sees them: `self` is the object.
struct cfd_dlib_functions {
    void (*base64_construct)(void *self);
    void (*base64_destroy)(void *self);
    void (*base64_decode)(const void *self, void *in, void *out);
    void (*decoder_construct)(void *self);
    void (*decoder_destroy)(void *self);
    void (*decoder_set_stream)(void *self, void *in);
    void (*decoder_decode)(void *self, uint32_t low, uint32_t high);
    uint32_t (*decoder_get_target)(void *self, uint32_t total);
    void (*daxpy)(int n, double alpha, const double *x, int incx, double *y, int incy);
    void (*zaxpy)(int n, const void *alpha, const void *x, int incx, void *y, int incy);
    void (*dscal)(int n, double alpha, double *x, int incx);
    // Referenced only where the templates are compiled unoptimised (a debug build of the package
    // as another's dependency, which SwiftPM allows no -O2): single precision and complex scaling.
    void (*saxpy)(int n, float alpha, const float *x, int incx, float *y, int incy);
    void (*sscal)(int n, float alpha, float *x, int incx);
    void (*zscal)(int n, const void *alpha, void *x, int incx);
    void (*dgemm)(int order, int transa, int transb, int m, int n, int k, double alpha, const double *a, int lda, const double *b,
                  int ldb, double beta, double *c, int ldc);
    void (*dgesvd)(const char *jobu, const char *jobvt, const int *m, const int *n, double *a, const int *lda, double *s, double *u,
                   const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork, int *info);
    void (*dgesdd)(const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s, double *u, const int *ldu,
                   double *vt, const int *ldvt, double *work, const int *lwork, int *iwork, int *info);
};

static struct cfd_dlib_functions dlib;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *status;
static char problem[512];

/// Finds a symbol, noting why when it is missing.
static int find(void *library, const char *name, void **pointer) {
    if (cll_find(library, name, pointer, problem, sizeof problem)) return 1;
    status = problem;
    return 0;
}

static void load(void) {
    // The sonames of the dlib 19, BLAS 3 and LAPACK 3 the shim was compiled against.
    void *library = cll_open("libdlib.so.19.1", "libdlib19.1", problem, sizeof problem);
    void *blas = library ? cll_open("libblas.so.3", "libblas3", problem, sizeof problem) : NULL;
    void *lapack = blas ? cll_open("liblapack.so.3", "liblapack3", problem, sizeof problem) : NULL;
    if (!lapack) {
        status = problem;
        return;
    }
    if (!find(library, "_ZN4dlib6base64C1Ev", (void **)&dlib.base64_construct)) return;
    if (!find(library, "_ZN4dlib6base64D1Ev", (void **)&dlib.base64_destroy)) return;
    if (!find(library, "_ZNK4dlib6base646decodeERSiRSo", (void **)&dlib.base64_decode)) return;
    if (!find(library, "_ZN4dlib24entropy_decoder_kernel_2C1Ev", (void **)&dlib.decoder_construct)) return;
    if (!find(library, "_ZN4dlib24entropy_decoder_kernel_2D1Ev", (void **)&dlib.decoder_destroy)) return;
    if (!find(library, "_ZN4dlib24entropy_decoder_kernel_210set_streamERSi", (void **)&dlib.decoder_set_stream)) return;
    if (!find(library, "_ZN4dlib24entropy_decoder_kernel_26decodeEjj", (void **)&dlib.decoder_decode)) return;
    if (!find(library, "_ZN4dlib24entropy_decoder_kernel_210get_targetEj", (void **)&dlib.decoder_get_target)) return;
    if (!find(blas, "cblas_daxpy", (void **)&dlib.daxpy)) return;
    if (!find(blas, "cblas_zaxpy", (void **)&dlib.zaxpy)) return;
    if (!find(blas, "cblas_dscal", (void **)&dlib.dscal)) return;
    if (!find(blas, "cblas_dgemm", (void **)&dlib.dgemm)) return;
    if (!find(blas, "cblas_saxpy", (void **)&dlib.saxpy)) return;
    if (!find(blas, "cblas_sscal", (void **)&dlib.sscal)) return;
    if (!find(blas, "cblas_zscal", (void **)&dlib.zscal)) return;
    if (!find(lapack, "dgesvd_", (void **)&dlib.dgesvd)) return;
    if (!find(lapack, "dgesdd_", (void **)&dlib.dgesdd)) return;
}

const char *cfd_load(void) {
    pthread_once(&once, load);
    return status;
}

// The symbols face_detection.cpp's templates call, by their linkage names. They are reached
// through a detector or tracker, which `cfd_load` has made possible; a program whose own code
// binds to these names first loads the libraries here, and stops with why if it cannot.

/// The function behind a symbol, loading the libraries if that was not done yet.
#define CFD_CALL(field) (dlib.field ? dlib.field : (ensure_loaded(#field), dlib.field))

static void ensure_loaded(const char *field) {
    if (cfd_load()) {
        fprintf(stderr, "dlib's %s was called, but %s\n", field, status);
        abort();
    }
}

void cfd_base64_construct(void *self) __asm__("_ZN4dlib6base64C1Ev");
void cfd_base64_construct(void *self) { CFD_CALL(base64_construct)(self); }
void cfd_base64_destroy(void *self) __asm__("_ZN4dlib6base64D1Ev");
void cfd_base64_destroy(void *self) { CFD_CALL(base64_destroy)(self); }
void cfd_base64_decode(const void *self, void *in, void *out) __asm__("_ZNK4dlib6base646decodeERSiRSo");
void cfd_base64_decode(const void *self, void *in, void *out) { CFD_CALL(base64_decode)(self, in, out); }
void cfd_decoder_construct(void *self) __asm__("_ZN4dlib24entropy_decoder_kernel_2C1Ev");
void cfd_decoder_construct(void *self) { CFD_CALL(decoder_construct)(self); }
void cfd_decoder_destroy(void *self) __asm__("_ZN4dlib24entropy_decoder_kernel_2D1Ev");
void cfd_decoder_destroy(void *self) { CFD_CALL(decoder_destroy)(self); }
void cfd_decoder_set_stream(void *self, void *in) __asm__("_ZN4dlib24entropy_decoder_kernel_210set_streamERSi");
void cfd_decoder_set_stream(void *self, void *in) { CFD_CALL(decoder_set_stream)(self, in); }
void cfd_decoder_decode(void *self, uint32_t low, uint32_t high) __asm__("_ZN4dlib24entropy_decoder_kernel_26decodeEjj");
void cfd_decoder_decode(void *self, uint32_t low, uint32_t high) { CFD_CALL(decoder_decode)(self, low, high); }
uint32_t cfd_decoder_get_target(void *self, uint32_t total) __asm__("_ZN4dlib24entropy_decoder_kernel_210get_targetEj");
uint32_t cfd_decoder_get_target(void *self, uint32_t total) { return CFD_CALL(decoder_get_target)(self, total); }

void cblas_daxpy(int n, double alpha, const double *x, int incx, double *y, int incy) { CFD_CALL(daxpy)(n, alpha, x, incx, y, incy); }
void cblas_zaxpy(int n, const void *alpha, const void *x, int incx, void *y, int incy) { CFD_CALL(zaxpy)(n, alpha, x, incx, y, incy); }
void cblas_dscal(int n, double alpha, double *x, int incx) { CFD_CALL(dscal)(n, alpha, x, incx); }
void cblas_saxpy(int n, float alpha, const float *x, int incx, float *y, int incy) { CFD_CALL(saxpy)(n, alpha, x, incx, y, incy); }
void cblas_sscal(int n, float alpha, float *x, int incx) { CFD_CALL(sscal)(n, alpha, x, incx); }
void cblas_zscal(int n, const void *alpha, void *x, int incx) { CFD_CALL(zscal)(n, alpha, x, incx); }
void cblas_dgemm(int order, int transa, int transb, int m, int n, int k, double alpha, const double *a, int lda, const double *b,
                 int ldb, double beta, double *c, int ldc) {
    CFD_CALL(dgemm)(order, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
void dgesvd_(const char *jobu, const char *jobvt, const int *m, const int *n, double *a, const int *lda, double *s, double *u,
             const int *ldu, double *vt, const int *ldvt, double *work, const int *lwork, int *info) {
    CFD_CALL(dgesvd)(jobu, jobvt, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, info);
}
void dgesdd_(const char *jobz, const int *m, const int *n, double *a, const int *lda, double *s, double *u, const int *ldu,
             double *vt, const int *ldvt, double *work, const int *lwork, int *iwork, int *info) {
    CFD_CALL(dgesdd)(jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork, info);
}

#else
const char *cfd_load(void) { return "LinuxAVFoundation was built without its FaceDetection trait, which brings dlib"; }
#endif
