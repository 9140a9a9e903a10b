/* The C API from C99, the way DirectML sample code builds its operator descriptions:
 * DML_BUFFER_TENSOR_DESC -> DML_TENSOR_DESC -> DML_<OP>_OPERATOR_DESC -> DML_OPERATOR_DESC.
 * Expected values are worked out by hand in the comments (SPEC 3 and DirectML's documentation). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <strided/directml.h>

#include "check.h"

/* Threads: Win32's on Windows (MSVC has no pthread.h; the mingw-w64 cross build runs this branch
 * under wine), POSIX elsewhere. */
#ifdef _WIN32
#include <windows.h>
typedef HANDLE thread_t;
#else
#include <pthread.h>
typedef pthread_t thread_t;
#endif

/* Slice1, API.md's example: x = 0..15 as {1,1,4,4}; window rows 0..3 read with stride -2 (from
 * the window's end: rows 3, 1), columns 1..3 with stride 2 (columns 1, 3):
 * y = [[x[3][1], x[3][3]], [x[1][1], x[1][3]]] = [[13, 15], [5, 7]]. Lowest level FL_2_1. */
static void test_slice1(void) {
  const uint32_t in_sizes[4] = {1, 1, 4, 4}, out_sizes[4] = {1, 1, 2, 2};
  const uint32_t offsets[4] = {0, 0, 0, 1}, window[4] = {1, 1, 4, 3};
  const int32_t strides[4] = {1, 1, -2, 2};
  DML_BUFFER_TENSOR_DESC in_buf = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, in_sizes, NULL, 64);
  DML_BUFFER_TENSOR_DESC out_buf = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_sizes, NULL, 16);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &in_buf}, out = {DML_TENSOR_TYPE_BUFFER, &out_buf};
  DML_SLICE1_OPERATOR_DESC slice;
  DML_OPERATOR_DESC op;
  DML_FEATURE_LEVEL level = DML_FEATURE_LEVEL_1_0;
  strided_operator* compiled = NULL;
  float x[16], y[4] = {-1, -1, -1, -1};
  strided_buffer inputs[1], outputs[1];
  int i;
  for (i = 0; i < 16; ++i) x[i] = (float)i;

  slice.InputTensor = &in;
  slice.OutputTensor = &out;
  slice.DimensionCount = 4;
  slice.InputWindowOffsets = offsets;
  slice.InputWindowSizes = window;
  slice.InputWindowStrides = strides;
  op.Type = DML_OPERATOR_SLICE1;
  op.Desc = &slice;

  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_OK);
  CHECK(strcmp(strided_last_error(), "") == 0);
  CHECK_STATUS(strided_min_feature_level(&op, &level), STRIDED_OK);
  CHECK(level == DML_FEATURE_LEVEL_2_1);
  CHECK_STATUS(strided_validate(&op, DML_FEATURE_LEVEL_2_1), STRIDED_OK);
  CHECK_STATUS(strided_validate(&op, DML_FEATURE_LEVEL_2_0), STRIDED_VALIDATION_ERROR);

  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_OK);
  CHECK(compiled != NULL);
  inputs[0].data = x;
  inputs[0].size_in_bytes = sizeof x;
  outputs[0].data = y;
  outputs[0].size_in_bytes = sizeof y;
  CHECK_STATUS(strided_execute(compiled, inputs, 1, outputs, 1), STRIDED_OK);
  CHECK(y[0] == 13 && y[1] == 15 && y[2] == 5 && y[3] == 7);
  strided_release(compiled);
}

/* Split: int32 {2,5} = [[0..4],[10..14]] along axis 1 into {2,2} and {2,3}; the second output
 * has padded rows (strides {4,1}: 28 bytes = ((1*4 + 2*1) + 1) * 4), and its
 * padding keeps its sentinel. */
static void test_split(void) {
  const uint32_t in_sizes[2] = {2, 5}, a_sizes[2] = {2, 2}, b_sizes[2] = {2, 3}, b_strides[2] = {4, 1};
  DML_BUFFER_TENSOR_DESC in_buf = buffer(DML_TENSOR_DATA_TYPE_INT32, 2, in_sizes, NULL, 40);
  DML_BUFFER_TENSOR_DESC out_bufs[2];
  DML_TENSOR_DESC in, outs[2];
  DML_SPLIT_OPERATOR_DESC split;
  DML_OPERATOR_DESC op;
  strided_operator* compiled = NULL;
  int32_t x[10] = {0, 1, 2, 3, 4, 10, 11, 12, 13, 14}, a[4], b[7];
  strided_buffer inputs[1], outputs[2];
  int i;
  for (i = 0; i < 4; ++i) a[i] = -1;
  for (i = 0; i < 7; ++i) b[i] = -1;
  out_bufs[0] = buffer(DML_TENSOR_DATA_TYPE_INT32, 2, a_sizes, NULL, 16);
  out_bufs[1] = buffer(DML_TENSOR_DATA_TYPE_INT32, 2, b_sizes, b_strides, 28);
  in.Type = DML_TENSOR_TYPE_BUFFER;
  in.Desc = &in_buf;
  for (i = 0; i < 2; ++i) {
    outs[i].Type = DML_TENSOR_TYPE_BUFFER;
    outs[i].Desc = &out_bufs[i];
  }
  split.InputTensor = &in;
  split.OutputCount = 2;
  split.OutputTensors = outs;
  split.Axis = 1;
  op.Type = DML_OPERATOR_SPLIT;
  op.Desc = &split;

  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_OK);
  inputs[0].data = x;
  inputs[0].size_in_bytes = sizeof x;
  outputs[0].data = a;
  outputs[0].size_in_bytes = sizeof a;
  outputs[1].data = b;
  outputs[1].size_in_bytes = sizeof b;
  CHECK_STATUS(strided_execute(compiled, inputs, 1, outputs, 2), STRIDED_OK);
  /* a = [[0,1],[10,11]]; b rows at 0 and 4: [2,3,4] pad [12,13,14] */
  CHECK(a[0] == 0 && a[1] == 1 && a[2] == 10 && a[3] == 11);
  CHECK(b[0] == 2 && b[1] == 3 && b[2] == 4 && b[3] == -1 && b[4] == 12 && b[5] == 13 && b[6] == 14);
  /* one output buffer too few */
  CHECK_STATUS(strided_execute(compiled, inputs, 1, outputs, 1), STRIDED_BUFFER_ERROR);
  strided_release(compiled);
}

/* Scatter (ScatterElements), ONNX's example: data 3x3 zeros, indices [[1,0,2],[0,2,1]], updates
 * [[1,1.1,1.2],[2,2.1,2.2]], axis 0: out[idx[i][j]][j] = upd[i][j] ->
 * [[2, 1.1, 0], [1, 0, 2.2], [0, 2.1, 1.2]]. An index of 3 is out of range: INDEX_ERROR and the
 * output untouched. */
static void test_scatter(void) {
  const uint32_t data_sizes[2] = {3, 3}, idx_sizes[2] = {2, 3};
  DML_BUFFER_TENSOR_DESC data_buf = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 2, data_sizes, NULL, 36);
  DML_BUFFER_TENSOR_DESC idx_buf = buffer(DML_TENSOR_DATA_TYPE_INT32, 2, idx_sizes, NULL, 24);
  DML_BUFFER_TENSOR_DESC upd_buf = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 2, idx_sizes, NULL, 24);
  DML_TENSOR_DESC data = {DML_TENSOR_TYPE_BUFFER, &data_buf}, idx = {DML_TENSOR_TYPE_BUFFER, &idx_buf};
  DML_TENSOR_DESC upd = {DML_TENSOR_TYPE_BUFFER, &upd_buf};
  DML_SCATTER_ELEMENTS_OPERATOR_DESC scatter;
  DML_OPERATOR_DESC op;
  DML_FEATURE_LEVEL level = DML_FEATURE_LEVEL_1_0;
  strided_operator* compiled = NULL;
  float x[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0}, u[6] = {1.0f, 1.1f, 1.2f, 2.0f, 2.1f, 2.2f}, y[9];
  int32_t indices[6] = {1, 0, 2, 0, 2, 1};
  strided_buffer inputs[3], outputs[1];
  int i;
  for (i = 0; i < 9; ++i) y[i] = -1;
  scatter.InputTensor = &data;
  scatter.IndicesTensor = &idx;
  scatter.UpdatesTensor = &upd;
  scatter.OutputTensor = &data; /* the same description: DirectML samples reuse it */
  scatter.Axis = 0;
  op.Type = DML_OPERATOR_SCATTER;
  op.Desc = &scatter;

  CHECK_STATUS(strided_min_feature_level(&op, &level), STRIDED_OK);
  /* SPEC 4: Scatter takes exactly 4 dimensions at 2_0 and 2_1, 1-8 from 3_0 */
  CHECK(level == DML_FEATURE_LEVEL_3_0);
  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_OK);
  inputs[0].data = x;
  inputs[0].size_in_bytes = sizeof x;
  inputs[1].data = indices;
  inputs[1].size_in_bytes = sizeof indices;
  inputs[2].data = u;
  inputs[2].size_in_bytes = sizeof u;
  outputs[0].data = y;
  outputs[0].size_in_bytes = sizeof y;
  CHECK_STATUS(strided_execute(compiled, inputs, 3, outputs, 1), STRIDED_OK);
  CHECK(y[0] == 2.0f && y[1] == 1.1f && y[2] == 0.0f);
  CHECK(y[3] == 1.0f && y[4] == 0.0f && y[5] == 2.2f);
  CHECK(y[6] == 0.0f && y[7] == 2.1f && y[8] == 1.2f);

  for (i = 0; i < 9; ++i) y[i] = -1;
  indices[4] = 3;
  CHECK_STATUS(strided_execute(compiled, inputs, 3, outputs, 1), STRIDED_INDEX_ERROR);
  for (i = 0; i < 9; ++i) CHECK(y[i] == -1);
  /* a buffer shorter than its TotalTensorSizeInBytes */
  indices[4] = 2;
  inputs[2].size_in_bytes = 20;
  CHECK_STATUS(strided_execute(compiled, inputs, 3, outputs, 1), STRIDED_BUFFER_ERROR);
  strided_release(compiled);
}

/* Cast (SPEC 3.5): float -> uint8 truncates toward zero and saturates: {3.9, -2, 300.7, 128.5}
 * -> {3, 0, 255, 128}; int32 -> int8 wraps modulo 256: {300, -129, 127, -128} -> {44, 127, 127, -128}. */
static void test_cast(void) {
  const uint32_t sizes[1] = {4};
  DML_BUFFER_TENSOR_DESC f32 = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 1, sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC u8 = buffer(DML_TENSOR_DATA_TYPE_UINT8, 1, sizes, NULL, 4);
  DML_BUFFER_TENSOR_DESC i32 = buffer(DML_TENSOR_DATA_TYPE_INT32, 1, sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC i8 = buffer(DML_TENSOR_DATA_TYPE_INT8, 1, sizes, NULL, 4);
  DML_TENSOR_DESC tf32 = {DML_TENSOR_TYPE_BUFFER, &f32}, tu8 = {DML_TENSOR_TYPE_BUFFER, &u8};
  DML_TENSOR_DESC ti32 = {DML_TENSOR_TYPE_BUFFER, &i32}, ti8 = {DML_TENSOR_TYPE_BUFFER, &i8};
  DML_CAST_OPERATOR_DESC cast;
  DML_OPERATOR_DESC op;
  strided_operator* compiled = NULL;
  float xf[4] = {3.9f, -2.0f, 300.7f, 128.5f};
  int32_t xi[4] = {300, -129, 127, -128};
  uint8_t yu[4] = {9, 9, 9, 9};
  int8_t yi[4] = {9, 9, 9, 9};
  strided_buffer in, out;

  cast.InputTensor = &tf32;
  cast.OutputTensor = &tu8;
  op.Type = DML_OPERATOR_CAST;
  op.Desc = &cast;
  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_OK);
  in.data = xf;
  in.size_in_bytes = sizeof xf;
  out.data = yu;
  out.size_in_bytes = sizeof yu;
  CHECK_STATUS(strided_execute(compiled, &in, 1, &out, 1), STRIDED_OK);
  CHECK(yu[0] == 3 && yu[1] == 0 && yu[2] == 255 && yu[3] == 128);
  strided_release(compiled);

  cast.InputTensor = &ti32;
  cast.OutputTensor = &ti8;
  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_OK);
  in.data = xi;
  in.size_in_bytes = sizeof xi;
  out.data = yi;
  out.size_in_bytes = sizeof yi;
  CHECK_STATUS(strided_execute(compiled, &in, 1, &out, 1), STRIDED_OK);
  CHECK(yi[0] == 44 && yi[1] == 127 && yi[2] == 127 && yi[3] == -128);
  strided_release(compiled);
}

/* FillValueConstant: a DML_SCALAR_UNION of the output's type; INT16 -5 everywhere. */
static void test_fill_value_constant(void) {
  const uint32_t sizes[2] = {2, 3};
  DML_BUFFER_TENSOR_DESC b = buffer(DML_TENSOR_DATA_TYPE_INT16, 2, sizes, NULL, 12);
  DML_TENSOR_DESC t = {DML_TENSOR_TYPE_BUFFER, &b};
  DML_FILL_VALUE_CONSTANT_OPERATOR_DESC fill;
  DML_OPERATOR_DESC op;
  strided_operator* compiled = NULL;
  int16_t y[6] = {0, 0, 0, 0, 0, 0};
  strided_buffer out;
  int i;
  memset(&fill, 0, sizeof fill);
  fill.OutputTensor = &t;
  fill.ValueDataType = DML_TENSOR_DATA_TYPE_INT16;
  fill.Value.Int16 = -5;
  op.Type = DML_OPERATOR_FILL_VALUE_CONSTANT;
  op.Desc = &fill;
  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_OK);
  out.data = y;
  out.size_in_bytes = sizeof y;
  CHECK_STATUS(strided_execute(compiled, NULL, 0, &out, 1), STRIDED_OK);
  for (i = 0; i < 6; ++i) CHECK(y[i] == -5);
  strided_release(compiled);
}

/* Padding1 with a FLOAT16 value (the binary16 pattern in the union's UInt16, SPEC 1): in {1,1,1,4}
 * [1,2,3,4], start 2, end 4, CONSTANT 9 (0x4880) -> [9,9,1,2,3,4,9,9,9,9]; REFLECTION ->
 * [3,2,1,2,3,4,3,2,1,2] (SPEC 3.6). The PADDING1 struct is 5_0's; the same padding through the
 * older PADDING struct (a FLOAT value) is 1_0's; WRAP needs 6_4 through either. */
static void test_padding1(void) {
  const uint32_t in_sizes[4] = {1, 1, 1, 4}, out_sizes[4] = {1, 1, 1, 10};
  const uint32_t start[4] = {0, 0, 0, 2}, end[4] = {0, 0, 0, 4};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_FLOAT16, 4, in_sizes, NULL, 8);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_FLOAT16, 4, out_sizes, NULL, 20);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_PADDING1_OPERATOR_DESC padding;
  DML_PADDING_OPERATOR_DESC padding0 = {&in, &out, DML_PADDING_MODE_CONSTANT, 9.0f, 4, start, end};
  DML_OPERATOR_DESC op, op0 = {DML_OPERATOR_PADDING, &padding0};
  DML_FEATURE_LEVEL level = DML_FEATURE_LEVEL_6_4;
  strided_operator* compiled = NULL;
  /* binary16: 1 = 0x3C00, 2 = 0x4000, 3 = 0x4200, 4 = 0x4400, 9 = 0x4880 */
  const uint16_t constant[10] = {0x4880, 0x4880, 0x3C00, 0x4000, 0x4200, 0x4400, 0x4880, 0x4880, 0x4880, 0x4880};
  const uint16_t reflection[10] = {0x4200, 0x4000, 0x3C00, 0x4000, 0x4200, 0x4400, 0x4200, 0x4000, 0x3C00, 0x4000};
  uint16_t x[4] = {0x3C00, 0x4000, 0x4200, 0x4400}, y[10];
  strided_buffer input, output;
  memset(&padding, 0, sizeof padding);
  padding.InputTensor = &in;
  padding.OutputTensor = &out;
  padding.PaddingMode = DML_PADDING_MODE_CONSTANT;
  padding.PaddingValueDataType = DML_TENSOR_DATA_TYPE_FLOAT16;
  padding.PaddingValue.UInt16 = 0x4880;
  padding.DimensionCount = 4;
  padding.StartPadding = start;
  padding.EndPadding = end;
  op.Type = DML_OPERATOR_PADDING1;
  op.Desc = &padding;
  input.data = x;
  input.size_in_bytes = sizeof x;
  output.data = y;
  output.size_in_bytes = sizeof y;

  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_OK);
  memset(y, 0, sizeof y);
  CHECK_STATUS(strided_execute(compiled, &input, 1, &output, 1), STRIDED_OK);
  CHECK(memcmp(y, constant, sizeof y) == 0);
  strided_release(compiled);
  CHECK_STATUS(strided_min_feature_level(&op, &level), STRIDED_OK);
  CHECK(level == DML_FEATURE_LEVEL_5_0);
  CHECK_STATUS(strided_validate(&op, DML_FEATURE_LEVEL_4_1), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("needs feature level FL_5_0");
  CHECK_STATUS(strided_min_feature_level(&op0, &level), STRIDED_OK);
  CHECK(level == DML_FEATURE_LEVEL_1_0);
  CHECK_STATUS(strided_compile(&op0, NULL, &compiled), STRIDED_OK);
  memset(y, 0, sizeof y);
  CHECK_STATUS(strided_execute(compiled, &input, 1, &output, 1), STRIDED_OK);
  CHECK(memcmp(y, constant, sizeof y) == 0);
  strided_release(compiled);

  padding.PaddingMode = DML_PADDING_MODE_REFLECTION;
  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_OK);
  memset(y, 0, sizeof y);
  CHECK_STATUS(strided_execute(compiled, &input, 1, &output, 1), STRIDED_OK);
  CHECK(memcmp(y, reflection, sizeof y) == 0);
  strided_release(compiled);

  padding.PaddingMode = padding0.PaddingMode = DML_PADDING_MODE_WRAP;
  CHECK_STATUS(strided_min_feature_level(&op, &level), STRIDED_OK);
  CHECK(level == DML_FEATURE_LEVEL_6_4);
  CHECK_STATUS(strided_min_feature_level(&op0, &level), STRIDED_OK);
  CHECK(level == DML_FEATURE_LEVEL_6_4);

  /* the value's type must be the output's (SPEC 1) */
  padding.PaddingValueDataType = DML_TENSOR_DATA_TYPE_FLOAT32;
  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_VALIDATION_ERROR);
  CHECK(compiled == NULL);
  CHECK_MESSAGE("PaddingDesc.padding_value");
  padding.PaddingValueDataType = DML_TENSOR_DATA_TYPE_FLOAT16;
  padding.StartPadding = NULL;
  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_PADDING1_OPERATOR_DESC.StartPadding: must not be NULL (4 values expected)");
}

/* Malformed input: a status and a message naming the field, never a crash. */
static void test_errors(void) {
  const uint32_t sizes[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  const uint32_t offsets[4] = {0, 0, 0, 0}, window[4] = {1, 1, 4, 4};
  const int32_t bad_strides[4] = {1, 1, 1, 0};
  DML_BUFFER_TENSOR_DESC b = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, window, NULL, 64);
  DML_TENSOR_DESC t = {DML_TENSOR_TYPE_BUFFER, &b};
  DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identity;
  DML_SLICE1_OPERATOR_DESC slice;
  DML_SCALE_BIAS scale_bias = {2.0f, 1.0f};
  DML_OPERATOR_DESC op;
  DML_FEATURE_LEVEL level = DML_FEATURE_LEVEL_1_0;
  strided_operator* compiled = NULL;
  strided_buffer buf;

  CHECK_STATUS(strided_validate(NULL, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_OPERATOR_DESC: must not be NULL");
  op.Type = DML_OPERATOR_SLICE1;
  op.Desc = NULL;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_OPERATOR_DESC.Desc: must not be NULL");
  op.Type = (DML_OPERATOR_TYPE)2; /* DML_OPERATOR_ELEMENT_WISE_ABS: not data movement */
  op.Desc = &identity;
  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_OPERATOR_DESC.Type: unknown or unsupported operator type 2");

  /* Identity: ScaleBias must be NULL; tensors must be buffers with sane counts and arrays */
  identity.InputTensor = &t;
  identity.OutputTensor = &t;
  identity.ScaleBias = &scale_bias;
  op.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC.ScaleBias: must be NULL");
  identity.ScaleBias = NULL;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_OK);
  identity.OutputTensor = NULL;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC.OutputTensor: must not be NULL");
  identity.OutputTensor = &t;
  t.Type = DML_TENSOR_TYPE_INVALID;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("InputTensor->Type: must be DML_TENSOR_TYPE_BUFFER (1), got 0");
  t.Type = DML_TENSOR_TYPE_BUFFER;
  b.DimensionCount = 9;
  b.Sizes = sizes;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("InputTensor->Desc->DimensionCount: must be 1..8");
  b.DimensionCount = 4;
  b.Sizes = NULL;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("InputTensor->Desc->Sizes: must not be NULL");
  b.Sizes = window;
  b.TotalTensorSizeInBytes = 60; /* under the 64 bytes the sizes need: the C++ rule's text */
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC.InputTensor: TensorDesc.total_bytes");
  b.TotalTensorSizeInBytes = 64;

  /* Slice1: a DimensionCount over 8, a NULL array, then a rule of the C++ description */
  slice.InputTensor = &t;
  slice.OutputTensor = &t;
  slice.DimensionCount = 9;
  slice.InputWindowOffsets = offsets;
  slice.InputWindowSizes = window;
  slice.InputWindowStrides = bad_strides;
  op.Type = DML_OPERATOR_SLICE1;
  op.Desc = &slice;
  CHECK_STATUS(strided_min_feature_level(&op, &level), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_SLICE1_OPERATOR_DESC.DimensionCount: must be at most 8");
  CHECK(level == DML_FEATURE_LEVEL_1_0); /* untouched */
  slice.DimensionCount = 4;
  slice.InputWindowSizes = NULL;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_SLICE1_OPERATOR_DESC.InputWindowSizes: must not be NULL");
  slice.InputWindowSizes = window;
  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("Slice1Desc.strides[3]: ");
  CHECK(compiled == NULL);
  CHECK_STATUS(strided_min_feature_level(&op, NULL), STRIDED_VALIDATION_ERROR);
  CHECK_STATUS(strided_compile(&op, NULL, NULL), STRIDED_VALIDATION_ERROR);

  /* execute on nothing; an unknown feature level */
  buf.data = NULL;
  buf.size_in_bytes = 0;
  CHECK_STATUS(strided_execute(NULL, &buf, 1, &buf, 1), STRIDED_BUFFER_ERROR);
  CHECK_MESSAGE("strided_execute.compiled: must not be NULL");
  identity.InputTensor = &t;
  op.Type = DML_OPERATOR_ELEMENT_WISE_IDENTITY;
  op.Desc = &identity;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0x4200), STRIDED_VALIDATION_ERROR);
  strided_release(NULL);
}

/* A *1 struct is newer than its plain predecessor: SPACE_TO_DEPTH1 (DCR, FLOAT32) needs 2_1,
 * SPACE_TO_DEPTH the same description 1_0; GATHER_ND1 3_0. */
static void test_struct_levels(void) {
  const uint32_t in_sizes[4] = {1, 1, 2, 2}, out_sizes[4] = {1, 4, 1, 1};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, in_sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_sizes, NULL, 16);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_SPACE_TO_DEPTH_OPERATOR_DESC s2d;
  DML_SPACE_TO_DEPTH1_OPERATOR_DESC s2d1;
  DML_OPERATOR_DESC op;
  DML_FEATURE_LEVEL level = DML_FEATURE_LEVEL_6_4;
  s2d.InputTensor = &in;
  s2d.OutputTensor = &out;
  s2d.BlockSize = 2;
  s2d1.InputTensor = &in;
  s2d1.OutputTensor = &out;
  s2d1.BlockSize = 2;
  s2d1.Order = DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW;
  op.Type = DML_OPERATOR_SPACE_TO_DEPTH;
  op.Desc = &s2d;
  CHECK_STATUS(strided_min_feature_level(&op, &level), STRIDED_OK);
  CHECK(level == DML_FEATURE_LEVEL_1_0);
  op.Type = DML_OPERATOR_SPACE_TO_DEPTH1;
  op.Desc = &s2d1;
  CHECK_STATUS(strided_min_feature_level(&op, &level), STRIDED_OK);
  CHECK(level == DML_FEATURE_LEVEL_2_1);
  CHECK_STATUS(strided_validate(&op, DML_FEATURE_LEVEL_1_0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("needs feature level FL_2_1");
}

/* One compiled operator executed from several threads at once (Tile: [1,2,3] repeated 3 times
 * along its one dimension = [1,2,3,1,2,3,1,2,3]); and the message is per thread. */
enum { kThreads = 8, kRounds = 200 };
static strided_operator* g_tile = NULL;
static int g_thread_failures[kThreads];

static void* tile_worker(void* arg) {
  const int k = *(const int*)arg;
  int32_t x[3], y[9];
  strided_buffer in, out;
  int round, i;
  g_thread_failures[k] = 0;
  /* the main thread's failure is not this thread's message */
  if (strcmp(strided_last_error(), "") != 0) ++g_thread_failures[k];
  for (round = 0; round < kRounds; ++round) {
    for (i = 0; i < 3; ++i) x[i] = k * 1000 + round * 3 + i;
    for (i = 0; i < 9; ++i) y[i] = -1;
    in.data = x;
    in.size_in_bytes = sizeof x;
    out.data = y;
    out.size_in_bytes = sizeof y;
    if (strided_execute(g_tile, &in, 1, &out, 1) != STRIDED_OK) ++g_thread_failures[k];
    for (i = 0; i < 9; ++i)
      if (y[i] != x[i % 3]) ++g_thread_failures[k];
  }
  return NULL;
}

#ifdef _WIN32
static DWORD WINAPI win_worker(LPVOID arg) {
  tile_worker(arg);
  return 0;
}
static int start_thread(thread_t* t, int* id) {
  *t = CreateThread(NULL, 0, win_worker, id, 0, NULL);
  return *t != NULL;
}
static int join_thread(thread_t t) {
  const int ok = WaitForSingleObject(t, INFINITE) == WAIT_OBJECT_0;
  return CloseHandle(t) && ok;
}
#else
static int start_thread(thread_t* t, int* id) { return pthread_create(t, NULL, tile_worker, id) == 0; }
static int join_thread(thread_t t) { return pthread_join(t, NULL) == 0; }
#endif

static void test_threads(void) {
  const uint32_t in_sizes[1] = {3}, out_sizes[1] = {9}, repeats[1] = {3};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_INT32, 1, in_sizes, NULL, 12);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_INT32, 1, out_sizes, NULL, 36);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_TILE_OPERATOR_DESC tile;
  DML_OPERATOR_DESC op;
  strided_compile_options opts;
  thread_t threads[kThreads];
  int ids[kThreads], k;
  tile.InputTensor = &in;
  tile.OutputTensor = &out;
  tile.RepeatsCount = 1;
  tile.Repeats = repeats;
  op.Type = DML_OPERATOR_TILE;
  op.Desc = &tile;
  opts.threads = 1;
  CHECK_STATUS(strided_compile(&op, &opts, &g_tile), STRIDED_OK);
  CHECK_STATUS(strided_validate(NULL, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  for (k = 0; k < kThreads; ++k) {
    ids[k] = k;
    CHECK(start_thread(&threads[k], &ids[k]));
  }
  for (k = 0; k < kThreads; ++k) CHECK(join_thread(threads[k]));
  for (k = 0; k < kThreads; ++k) CHECK(g_thread_failures[k] == 0);
  CHECK_MESSAGE("DML_OPERATOR_DESC: must not be NULL"); /* this thread's message survived */
  strided_release(g_tile);
}

/* The layouts DirectML.h gives on 64-bit Windows (4-byte UINT and enums, 8-byte pointers and
 * UINT64 aligned to 8), worked out by hand: the same bytes, so a struct can cross unchanged. */
static void test_layout(void) {
  if (sizeof(void*) != 8) return; /* the figures below are for 64-bit targets */
  CHECK(sizeof(DML_BUFFER_TENSOR_DESC) == 48);
  CHECK(offsetof(DML_BUFFER_TENSOR_DESC, DimensionCount) == 8);
  CHECK(offsetof(DML_BUFFER_TENSOR_DESC, Sizes) == 16 && offsetof(DML_BUFFER_TENSOR_DESC, Strides) == 24);
  CHECK(offsetof(DML_BUFFER_TENSOR_DESC, TotalTensorSizeInBytes) == 32);
  CHECK(offsetof(DML_BUFFER_TENSOR_DESC, GuaranteedBaseOffsetAlignment) == 40);
  CHECK(sizeof(DML_TENSOR_DESC) == 16 && sizeof(DML_OPERATOR_DESC) == 16 && sizeof(DML_SCALAR_UNION) == 8);
  CHECK(sizeof(DML_SPLIT_OPERATOR_DESC) == 32 && offsetof(DML_SPLIT_OPERATOR_DESC, OutputTensors) == 16);
  CHECK(offsetof(DML_FILL_VALUE_CONSTANT_OPERATOR_DESC, Value) == 16);
  CHECK(offsetof(DML_PADDING1_OPERATOR_DESC, PaddingValueDataType) == 20);
  CHECK(offsetof(DML_PADDING1_OPERATOR_DESC, PaddingValue) == 24);
  CHECK(offsetof(DML_PADDING1_OPERATOR_DESC, DimensionCount) == 32);
  CHECK(sizeof(DML_PADDING1_OPERATOR_DESC) == 56);
  CHECK(offsetof(DML_DIAGONAL_MATRIX1_OPERATOR_DESC, Value) == 24);
  CHECK(sizeof(DML_DIAGONAL_MATRIX1_OPERATOR_DESC) == 40);
  CHECK(sizeof(DML_SLICE1_OPERATOR_DESC) == 48 && offsetof(DML_SLICE1_OPERATOR_DESC, InputWindowOffsets) == 24);
}

int main(void) {
  test_layout();
  CHECK(strlen(strided_version()) > 0);
  test_slice1();
  test_split();
  test_scatter();
  test_cast();
  test_fill_value_constant();
  test_padding1();
  test_errors();
  test_struct_levels();
  test_threads();
  return report("test_directml");
}
