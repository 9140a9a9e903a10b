/* NCHW -> NHWC with DirectML's own structs, run on the CPU by strided (C99).
 *
 * The DirectML idiom: an ELEMENT_WISE_IDENTITY whose output tensor has the logical NCHW sizes
 * but NHWC strides, so the copy writes channel-last memory. Built two ways (README.md, "From C"):
 *   cmake -S examples/c -B build-c -DCMAKE_PREFIX_PATH=<prefix> && cmake --build build-c
 *   cc -std=c99 nchw_to_nhwc.c $(pkg-config --cflags --libs strided) -o nchw_to_nhwc
 */
#include <stdio.h>

#include <strided/directml.h>

int main(void) {
  enum { N = 1, C = 3, H = 2, W = 2 };
  const uint32_t sizes[4] = {N, C, H, W};
  const uint32_t nhwc_strides[4] = {H * W * C, 1, W * C, C}; /* in elements */
  DML_BUFFER_TENSOR_DESC in_buf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, NULL, NULL, 0, 0};
  DML_BUFFER_TENSOR_DESC out_buf = {DML_TENSOR_DATA_TYPE_FLOAT32, DML_TENSOR_FLAG_NONE, 4, NULL, NULL, 0, 0};
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, NULL}, out = {DML_TENSOR_TYPE_BUFFER, NULL};
  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity = {NULL, NULL, NULL}; /* ScaleBias stays NULL */
  DML_OPERATOR_DESC op = {DML_OPERATOR_ELEMENT_WISE_IDENTITY, NULL};
  DML_FEATURE_LEVEL level;
  strided_operator* compiled = NULL;
  float x[N * C * H * W], y[N * H * W * C];
  strided_buffer input, output;
  int i, errors = 0;

  in_buf.Sizes = sizes;
  in_buf.TotalTensorSizeInBytes = sizeof x; /* DMLCalcBufferTensorSize: 48 */
  out_buf.Sizes = sizes;
  out_buf.Strides = nhwc_strides;
  out_buf.TotalTensorSizeInBytes = sizeof y;
  in.Desc = &in_buf;
  out.Desc = &out_buf;
  identity.InputTensor = &in;
  identity.OutputTensor = &out;
  op.Desc = &identity;

  if (strided_min_feature_level(&op, &level) != STRIDED_OK || strided_compile(&op, NULL, &compiled) != STRIDED_OK) {
    fprintf(stderr, "strided: %s\n", strided_last_error());
    return 1;
  }
  for (i = 0; i < N * C * H * W; ++i) x[i] = (float)i; /* x[c][h][w] = c*4 + h*2 + w */
  input.data = x;
  input.size_in_bytes = sizeof x;
  output.data = y;
  output.size_in_bytes = sizeof y;
  if (strided_execute(compiled, &input, 1, &output, 1) != STRIDED_OK) {
    fprintf(stderr, "strided: %s\n", strided_last_error());
    strided_release(compiled);
    return 1;
  }
  strided_release(compiled);

  /* y[h][w][c] = x[c][h][w] */
  printf("strided %s, ELEMENT_WISE_IDENTITY valid from DML_FEATURE_LEVEL 0x%x\nNHWC:", strided_version(),
         (unsigned)level);
  for (i = 0; i < N * H * W * C; ++i) {
    const int c = i % C, w = (i / C) % W, h = i / (C * W);
    printf(" %g", (double)y[i]);
    if (y[i] != (float)(c * H * W + h * W + w)) ++errors;
  }
  printf("\n%s\n", errors == 0 ? "OK" : "WRONG");
  return errors == 0 ? 0 : 1;
}
