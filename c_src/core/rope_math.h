/*
 * The few elementary functions the core needs, written out so that the native
 * build and the WebAssembly build compute bit-identical doubles: the C
 * libraries' sin, cos and pow differ in the last bit between glibc and musl,
 * and the page's report must match the CLI's byte for byte. Only IEEE +, -,
 * *, / (with -ffp-contract=off), floor, frexp and ldexp are used, and those
 * are exact and identical everywhere.
 */
#ifndef ROPE_MATH_H
#define ROPE_MATH_H

/* Largest |x| reduced by Cody-Waite (2^19 * pi/2); beyond it x is first
 * reduced by whole turns with fmod, which is exact everywhere. */
#define ROPE_SINCOS_EXACT_MAX 823549.6

/* sin(x) and cos(x) within about 1 ulp. out: *s and *c. */
void rope_sincos(double x, double *s, double *c);

/* base^y for base > 0, y finite (log and exp carried in double-double):
 * within 2 ulps while |y ln base| <= 40, which covers every theta; a few ulps
 * more at extreme exponents. Overflow gives +Inf, underflow 0. */
double rope_pow(double base, double y);

/* ln(x) for finite x > 0, within 1 ulp (the double-double log of rope_pow,
 * rounded), so that native and wasm builds agree bit for bit. */
double rope_log(double x);

/* e^x for finite x, within 1 ulp (the double-double exp of rope_pow,
 * rounded): the same bits in the native and wasm builds. */
double rope_exp(double x);

#endif /* ROPE_MATH_H */
