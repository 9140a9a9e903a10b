/* Every converter of the C layer once, on SPEC 3's worked examples (results by hand): a field
 * read from the wrong place of its DML_*_OPERATOR_DESC gives a wrong result or a wrong level. */
#include <stdio.h>
#include <string.h>

#include <strided/directml.h>

#include "check.h"

/* Compiles `op`, runs it on the inputs and one output, releases it. */
static strided_status run(const DML_OPERATOR_DESC* op, const strided_buffer* inputs, size_t input_count, void* out,
                          uint64_t out_bytes) {
  strided_operator* compiled = NULL;
  strided_buffer output;
  strided_status s = strided_compile(op, NULL, &compiled);
  if (s != STRIDED_OK) return s;
  output.data = out;
  output.size_in_bytes = out_bytes;
  s = strided_execute(compiled, inputs, input_count, &output, 1);
  strided_release(compiled);
  return s;
}

static strided_buffer buf(void* data, uint64_t bytes) {
  strided_buffer b;
  b.data = data;
  b.size_in_bytes = bytes;
  return b;
}

static DML_FEATURE_LEVEL min_level(const DML_OPERATOR_DESC* op) {
  DML_FEATURE_LEVEL level = (DML_FEATURE_LEVEL)0;
  CHECK_STATUS(strided_min_feature_level(op, &level), STRIDED_OK);
  return level;
}

/* Slice (v0): x = 0..15 as {4,4}; offsets {1,0}, sizes {2,2} (the output's), strides {2,3}:
 * rows 1, 3 and columns 0, 3 -> [[4,7],[12,15]]. */
static void test_slice(void) {
  const uint32_t in_sizes[2] = {4, 4}, out_sizes[2] = {2, 2}, offsets[2] = {1, 0}, strides[2] = {2, 3};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_INT32, 2, in_sizes, NULL, 64);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_INT32, 2, out_sizes, NULL, 16);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_SLICE_OPERATOR_DESC slice = {&in, &out, 2, offsets, out_sizes, strides};
  DML_OPERATOR_DESC op = {DML_OPERATOR_SLICE, &slice};
  int32_t x[16], y[4] = {0, 0, 0, 0};
  strided_buffer input = buf(x, sizeof x);
  int i;
  for (i = 0; i < 16; ++i) x[i] = i;
  CHECK_STATUS(run(&op, &input, 1, y, sizeof y), STRIDED_OK);
  CHECK(y[0] == 4 && y[1] == 7 && y[2] == 12 && y[3] == 15);
}

/* Join along axis 1: [[1],[2]] and [[3,4],[5,6]] -> [[1,3,4],[2,5,6]]. */
static void test_join(void) {
  const uint32_t a_sizes[2] = {2, 1}, b_sizes[2] = {2, 2}, out_sizes[2] = {2, 3};
  DML_BUFFER_TENSOR_DESC bufs[2], ob = buffer(DML_TENSOR_DATA_TYPE_INT16, 2, out_sizes, NULL, 12);
  DML_TENSOR_DESC ins[2], out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_JOIN_OPERATOR_DESC join;
  DML_OPERATOR_DESC op = {DML_OPERATOR_JOIN, &join};
  int16_t a[2] = {1, 2}, b[4] = {3, 4, 5, 6}, y[6] = {0, 0, 0, 0, 0, 0};
  strided_buffer inputs[2];
  bufs[0] = buffer(DML_TENSOR_DATA_TYPE_INT16, 2, a_sizes, NULL, 4);
  bufs[1] = buffer(DML_TENSOR_DATA_TYPE_INT16, 2, b_sizes, NULL, 8);
  ins[0].Type = ins[1].Type = DML_TENSOR_TYPE_BUFFER;
  ins[0].Desc = &bufs[0];
  ins[1].Desc = &bufs[1];
  join.InputCount = 2;
  join.InputTensors = ins;
  join.OutputTensor = &out;
  join.Axis = 1;
  inputs[0] = buf(a, sizeof a);
  inputs[1] = buf(b, sizeof b);
  CHECK_STATUS(run(&op, inputs, 2, y, sizeof y), STRIDED_OK);
  CHECK(y[0] == 1 && y[1] == 3 && y[2] == 4 && y[3] == 2 && y[4] == 5 && y[5] == 6);
  join.InputTensors = NULL;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_JOIN_OPERATOR_DESC.InputTensors: must not be NULL (2 tensors expected)");
}

/* Gather (SPEC 3.4): in [11,12,13,14], idx [3,1,3,0,2], axis 0, IndexDimensions 1 ->
 * [14,12,14,11,13]. */
static void test_gather(void) {
  const uint32_t in_sizes[1] = {4}, idx_sizes[1] = {5};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 1, in_sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC xb = buffer(DML_TENSOR_DATA_TYPE_INT32, 1, idx_sizes, NULL, 20);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 1, idx_sizes, NULL, 20);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, idx = {DML_TENSOR_TYPE_BUFFER, &xb};
  DML_TENSOR_DESC out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_GATHER_OPERATOR_DESC gather = {&in, &idx, &out, 0, 1};
  DML_OPERATOR_DESC op = {DML_OPERATOR_GATHER, &gather};
  float x[4] = {11, 12, 13, 14}, y[5] = {0, 0, 0, 0, 0};
  int32_t indices[5] = {3, 1, 3, 0, 2};
  strided_buffer inputs[2];
  inputs[0] = buf(x, sizeof x);
  inputs[1] = buf(indices, sizeof indices);
  CHECK_STATUS(run(&op, inputs, 2, y, sizeof y), STRIDED_OK);
  CHECK(y[0] == 14 && y[1] == 12 && y[2] == 14 && y[3] == 11 && y[4] == 13);
}

/* GatherElements (SPEC 3.4): in 3x3 = 1..9, idx [[1,2,0],[2,0,0]], axis 0 -> [[4,8,3],[7,2,3]]. */
static void test_gather_elements(void) {
  const uint32_t in_sizes[2] = {3, 3}, idx_sizes[2] = {2, 3};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_UINT8, 2, in_sizes, NULL, 12);
  DML_BUFFER_TENSOR_DESC xb = buffer(DML_TENSOR_DATA_TYPE_INT64, 2, idx_sizes, NULL, 48);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_UINT8, 2, idx_sizes, NULL, 8);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, idx = {DML_TENSOR_TYPE_BUFFER, &xb};
  DML_TENSOR_DESC out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_GATHER_ELEMENTS_OPERATOR_DESC ge = {&in, &idx, &out, 0};
  DML_OPERATOR_DESC op = {DML_OPERATOR_GATHER_ELEMENTS, &ge};
  uint8_t x[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0}, y[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  int64_t indices[6] = {1, 2, 0, 2, 0, 0};
  strided_buffer inputs[2];
  inputs[0] = buf(x, sizeof x);
  inputs[1] = buf(indices, sizeof indices);
  CHECK_STATUS(run(&op, inputs, 2, y, sizeof y), STRIDED_OK);
  CHECK(y[0] == 4 && y[1] == 8 && y[2] == 3 && y[3] == 7 && y[4] == 2 && y[5] == 3);
}

/* GatherND (SPEC 3.4): in [[0,1],[2,3]], idx [[1],[0]] -> [[2,3],[0,1]]; the same through
 * GATHER_ND1 with BatchDimensionCount 0 (a newer struct: its level is at least 3_0). */
static void test_gather_nd(void) {
  const uint32_t in_sizes[2] = {2, 2}, idx_sizes[2] = {2, 1};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_INT32, 2, in_sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC xb = buffer(DML_TENSOR_DATA_TYPE_UINT32, 2, idx_sizes, NULL, 8);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, idx = {DML_TENSOR_TYPE_BUFFER, &xb};
  DML_TENSOR_DESC out = {DML_TENSOR_TYPE_BUFFER, &ib};
  DML_GATHER_ND_OPERATOR_DESC nd = {&in, &idx, &out, 2, 2};
  DML_GATHER_ND1_OPERATOR_DESC nd1 = {&in, &idx, &out, 2, 2, 0};
  DML_OPERATOR_DESC op = {DML_OPERATOR_GATHER_ND, &nd}, op1 = {DML_OPERATOR_GATHER_ND1, &nd1};
  int32_t x[4] = {0, 1, 2, 3}, y[4] = {9, 9, 9, 9};
  uint32_t indices[2] = {1, 0};
  strided_buffer inputs[2];
  inputs[0] = buf(x, sizeof x);
  inputs[1] = buf(indices, sizeof indices);
  CHECK_STATUS(run(&op, inputs, 2, y, sizeof y), STRIDED_OK);
  CHECK(y[0] == 2 && y[1] == 3 && y[2] == 0 && y[3] == 1);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_3_0); /* 2-d tensors: 1-8 dimensions from 3_0 */
  memset(y, 0, sizeof y);
  CHECK_STATUS(run(&op1, inputs, 2, y, sizeof y), STRIDED_OK);
  CHECK(y[0] == 2 && y[1] == 3 && y[2] == 0 && y[3] == 1);
  CHECK(min_level(&op1) == DML_FEATURE_LEVEL_3_0);
  /* BatchDimensionCount is read: 2 batch dimensions leave no room for the tuple */
  nd1.BatchDimensionCount = 2;
  CHECK_STATUS(strided_validate(&op1, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("GatherNDDesc.");
}

/* GatherND with different counts, so that InputDimensionCount and IndicesDimensionCount cannot be
 * mixed up: in {2,2,2} = 0..7 (r = 3), one tuple idx [[1,0]] (q = 2, as {1,1,2}) -> in[1][0][:] =
 * [4,5] (as {1,1,2}). */
static void test_gather_nd_counts(void) {
  const uint32_t in_sizes[3] = {2, 2, 2}, idx_sizes[3] = {1, 1, 2}, out_sizes[3] = {1, 1, 2};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_UINT16, 3, in_sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC xb = buffer(DML_TENSOR_DATA_TYPE_INT64, 3, idx_sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_UINT16, 3, out_sizes, NULL, 4);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, idx = {DML_TENSOR_TYPE_BUFFER, &xb};
  DML_TENSOR_DESC out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_GATHER_ND_OPERATOR_DESC nd = {&in, &idx, &out, 3, 2};
  DML_GATHER_ND1_OPERATOR_DESC nd1 = {&in, &idx, &out, 3, 2, 0};
  DML_OPERATOR_DESC op = {DML_OPERATOR_GATHER_ND, &nd}, op1 = {DML_OPERATOR_GATHER_ND1, &nd1};
  uint16_t x[8] = {0, 1, 2, 3, 4, 5, 6, 7}, y[2] = {0, 0};
  int64_t indices[2] = {1, 0};
  strided_buffer inputs[2];
  inputs[0] = buf(x, sizeof x);
  inputs[1] = buf(indices, sizeof indices);
  CHECK_STATUS(run(&op, inputs, 2, y, sizeof y), STRIDED_OK);
  CHECK(y[0] == 4 && y[1] == 5);
  y[0] = y[1] = 0;
  CHECK_STATUS(run(&op1, inputs, 2, y, sizeof y), STRIDED_OK);
  CHECK(y[0] == 4 && y[1] == 5);
}

/* ScatterND (SPEC 3.4): in [1..8], idx [[4],[3],[1],[7]], upd [9,10,11,12] ->
 * [1,11,3,10,9,6,7,12]. As DirectML, every tensor has the same DimensionCount (here 2): input and
 * updates right-aligned with a leading 1, InputDimensionCount 1 of the input's. */
static void test_scatter_nd(void) {
  const uint32_t in_sizes[2] = {1, 8}, idx_sizes[2] = {4, 1}, upd_sizes[2] = {1, 4};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_FLOAT64, 2, in_sizes, NULL, 64);
  DML_BUFFER_TENSOR_DESC xb = buffer(DML_TENSOR_DATA_TYPE_INT32, 2, idx_sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC ub = buffer(DML_TENSOR_DATA_TYPE_FLOAT64, 2, upd_sizes, NULL, 32);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, idx = {DML_TENSOR_TYPE_BUFFER, &xb};
  DML_TENSOR_DESC upd = {DML_TENSOR_TYPE_BUFFER, &ub};
  DML_SCATTER_ND_OPERATOR_DESC snd = {&in, &idx, &upd, &in, 1, 2};
  DML_OPERATOR_DESC op = {DML_OPERATOR_SCATTER_ND, &snd};
  double x[8] = {1, 2, 3, 4, 5, 6, 7, 8}, u[4] = {9, 10, 11, 12}, y[8];
  const double expected[8] = {1, 11, 3, 10, 9, 6, 7, 12};
  int32_t indices[4] = {4, 3, 1, 7};
  strided_buffer inputs[3];
  int i;
  inputs[0] = buf(x, sizeof x);
  inputs[1] = buf(indices, sizeof indices);
  inputs[2] = buf(u, sizeof u);
  CHECK_STATUS(run(&op, inputs, 3, y, sizeof y), STRIDED_OK);
  for (i = 0; i < 8; ++i) CHECK(y[i] == expected[i]);
}

/* DepthToSpace (SPEC 3.8), in {1,8,1,1} = 0..7, b = 2 -> {1,2,2,2}:
 * out[c][bh][bw] = in[d]; DCR d = (bh*2 + bw)*2 + c -> [0,2,4,6, 1,3,5,7];
 * CRD d = (c*2 + bh)*2 + bw -> [0..7]. The plain struct is DCR; the *1 struct reads Order. */
static void test_depth_to_space(void) {
  const uint32_t in_sizes[4] = {1, 8, 1, 1}, out_sizes[4] = {1, 2, 2, 2};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_INT8, 4, in_sizes, NULL, 8);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_INT8, 4, out_sizes, NULL, 8);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_DEPTH_TO_SPACE_OPERATOR_DESC d2s = {&in, &out, 2};
  DML_DEPTH_TO_SPACE1_OPERATOR_DESC d2s1 = {&in, &out, 2, DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH};
  DML_OPERATOR_DESC op = {DML_OPERATOR_DEPTH_TO_SPACE, &d2s}, op1 = {DML_OPERATOR_DEPTH_TO_SPACE1, &d2s1};
  const int8_t dcr[8] = {0, 2, 4, 6, 1, 3, 5, 7};
  int8_t x[8] = {0, 1, 2, 3, 4, 5, 6, 7}, y[8];
  strided_buffer input = buf(x, sizeof x);
  int i;
  CHECK_STATUS(run(&op, &input, 1, y, sizeof y), STRIDED_OK);
  for (i = 0; i < 8; ++i) CHECK(y[i] == dcr[i]);
  CHECK_STATUS(run(&op1, &input, 1, y, sizeof y), STRIDED_OK);
  for (i = 0; i < 8; ++i) CHECK(y[i] == i);
  CHECK(min_level(&op1) == DML_FEATURE_LEVEL_2_1);
}

/* FillValueConstant with a FLOAT16 value: the binary16 pattern in the union's UInt16
 * (0x3C00 = 1.0). */
static void test_fill_float16(void) {
  const uint32_t sizes[1] = {3};
  DML_BUFFER_TENSOR_DESC b = buffer(DML_TENSOR_DATA_TYPE_FLOAT16, 1, sizes, NULL, 8);
  DML_TENSOR_DESC t = {DML_TENSOR_TYPE_BUFFER, &b};
  DML_FILL_VALUE_CONSTANT_OPERATOR_DESC fill;
  DML_OPERATOR_DESC op = {DML_OPERATOR_FILL_VALUE_CONSTANT, &fill};
  uint16_t y[4] = {0, 0, 0, 0x7777};
  memset(&fill, 0, sizeof fill);
  fill.OutputTensor = &t;
  fill.ValueDataType = DML_TENSOR_DATA_TYPE_FLOAT16;
  fill.Value.UInt16 = 0x3C00;
  CHECK_STATUS(run(&op, NULL, 0, y, sizeof y), STRIDED_OK);
  CHECK(y[0] == 0x3C00 && y[1] == 0x3C00 && y[2] == 0x3C00 && y[3] == 0x7777);
}

/* Padding (v0, a FLOAT PaddingValue): INT32 {1,1,1,4} [1,2,3,4], start 2, end 4 (SPEC 3.6);
 * CONSTANT -2.5f becomes INT32 -2 by the Cast rules (truncation) -> [-2,-2,1,2,3,4,-2,-2,-2,-2];
 * SYMMETRIC -> [2,1,1,2,3,4,4,3,2,1]. Levels: INT32 needs 2_1, SYMMETRIC 3_0. */
static void test_padding(void) {
  const uint32_t in_sizes[4] = {1, 1, 1, 4}, out_sizes[4] = {1, 1, 1, 10};
  const uint32_t start[4] = {0, 0, 0, 2}, end[4] = {0, 0, 0, 4};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_INT32, 4, in_sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_INT32, 4, out_sizes, NULL, 40);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_PADDING_OPERATOR_DESC pad = {&in, &out, DML_PADDING_MODE_CONSTANT, -2.5f, 4, start, end};
  DML_OPERATOR_DESC op = {DML_OPERATOR_PADDING, &pad};
  const int32_t constant[10] = {-2, -2, 1, 2, 3, 4, -2, -2, -2, -2}, symmetric[10] = {2, 1, 1, 2, 3, 4, 4, 3, 2, 1};
  int32_t x[4] = {1, 2, 3, 4}, y[10];
  strided_buffer input = buf(x, sizeof x);
  memset(y, 0, sizeof y);
  CHECK_STATUS(run(&op, &input, 1, y, sizeof y), STRIDED_OK);
  CHECK(memcmp(y, constant, sizeof y) == 0);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_2_1);
  pad.PaddingMode = DML_PADDING_MODE_SYMMETRIC;
  CHECK_STATUS(run(&op, &input, 1, y, sizeof y), STRIDED_OK);
  CHECK(memcmp(y, symmetric, sizeof y) == 0);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_3_0);
  pad.PaddingMode = (DML_PADDING_MODE)5;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("PaddingDesc.padding_mode: unknown mode 5");
  pad.EndPadding = NULL;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_PADDING_OPERATOR_DESC.EndPadding: must not be NULL (4 values expected)");
}

/* OneHot (SPEC 3.9): values {1,1,1,2} FLOAT32 [0,1] (off, on), indices {1,1,3,1} UINT32 [0,3,2],
 * axis 3, out {1,1,3,4} -> [[1,0,0,0],[0,0,0,1],[0,0,1,0]]. Lowest level 2_0. */
static void test_one_hot(void) {
  const uint32_t idx_sizes[4] = {1, 1, 3, 1}, val_sizes[4] = {1, 1, 1, 2}, out_sizes[4] = {1, 1, 3, 4};
  DML_BUFFER_TENSOR_DESC xb = buffer(DML_TENSOR_DATA_TYPE_UINT32, 4, idx_sizes, NULL, 12);
  DML_BUFFER_TENSOR_DESC vb = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, val_sizes, NULL, 8);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_sizes, NULL, 48);
  DML_TENSOR_DESC idx = {DML_TENSOR_TYPE_BUFFER, &xb}, vals = {DML_TENSOR_TYPE_BUFFER, &vb};
  DML_TENSOR_DESC out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_ONE_HOT_OPERATOR_DESC oh = {&idx, &vals, &out, 3};
  DML_OPERATOR_DESC op = {DML_OPERATOR_ONE_HOT, &oh};
  const float expected[12] = {1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0};
  uint32_t indices[3] = {0, 3, 2};
  float values[2] = {0, 1}, y[12];
  strided_buffer inputs[2];
  memset(y, 0xFF, sizeof y);
  inputs[0] = buf(indices, sizeof indices);
  inputs[1] = buf(values, sizeof values);
  CHECK_STATUS(run(&op, inputs, 2, y, sizeof y), STRIDED_OK);
  CHECK(memcmp(y, expected, sizeof y) == 0);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_2_0);
  oh.Axis = 4;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("OneHotDesc.axis");
  oh.Axis = 3;
  oh.ValuesTensor = NULL;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_ONE_HOT_OPERATOR_DESC.ValuesTensor: must not be NULL");
}

/* ReverseSubsequences (SPEC 3.10): in {1,1,3,4} INT16 = 1..12, lengths {1,1,3,1} UINT32 [2,4,3],
 * axis 3 -> [[2,1,3,4],[8,7,6,5],[11,10,9,12]]. Lowest level 2_1; INT32 lengths: no level. */
static void test_reverse_subsequences(void) {
  const uint32_t in_sizes[4] = {1, 1, 3, 4}, len_sizes[4] = {1, 1, 3, 1};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_INT16, 4, in_sizes, NULL, 24);
  DML_BUFFER_TENSOR_DESC lb = buffer(DML_TENSOR_DATA_TYPE_UINT32, 4, len_sizes, NULL, 12);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_INT16, 4, in_sizes, NULL, 24);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, len = {DML_TENSOR_TYPE_BUFFER, &lb};
  DML_TENSOR_DESC out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC rs = {&in, &len, &out, 3};
  DML_OPERATOR_DESC op = {DML_OPERATOR_REVERSE_SUBSEQUENCES, &rs};
  const int16_t expected[12] = {2, 1, 3, 4, 8, 7, 6, 5, 11, 10, 9, 12};
  int16_t x[12], y[12];
  uint32_t lengths[3] = {2, 4, 3};
  strided_buffer inputs[2];
  DML_FEATURE_LEVEL level = DML_FEATURE_LEVEL_6_4;
  int i;
  for (i = 0; i < 12; ++i) x[i] = (int16_t)(i + 1);
  memset(y, 0, sizeof y);
  inputs[0] = buf(x, sizeof x);
  inputs[1] = buf(lengths, sizeof lengths);
  CHECK_STATUS(run(&op, inputs, 2, y, sizeof y), STRIDED_OK);
  CHECK(memcmp(y, expected, sizeof y) == 0);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_2_1);
  CHECK_STATUS(strided_validate(&op, DML_FEATURE_LEVEL_2_0), STRIDED_VALIDATION_ERROR);
  lb.DataType = DML_TENSOR_DATA_TYPE_INT32; /* executes, but no DirectML level takes it */
  CHECK_STATUS(strided_min_feature_level(&op, &level), STRIDED_VALIDATION_ERROR);
  CHECK(level == DML_FEATURE_LEVEL_6_4);
  rs.SequenceLengthsTensor = NULL;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC.SequenceLengthsTensor: must not be NULL");
}

/* SliceGrad (SPEC 3.11, 3.3's window): offsets {0,0,0,1}, sizes {1,1,4,3}, strides {1,1,-2,2};
 * gradient {1,1,2,2} [[14,16],[6,8]] -> {1,1,4,4} [[0,0,0,0],[0,6,0,8],[0,0,0,0],[0,14,0,16]].
 * Lowest level 3_0. */
static void test_slice_grad(void) {
  const uint32_t g_sizes[4] = {1, 1, 2, 2}, out_sizes[4] = {1, 1, 4, 4};
  const uint32_t offsets[4] = {0, 0, 0, 1}, window[4] = {1, 1, 4, 3};
  int32_t strides[4] = {1, 1, -2, 2};
  DML_BUFFER_TENSOR_DESC gb = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, g_sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_sizes, NULL, 64);
  DML_TENSOR_DESC g = {DML_TENSOR_TYPE_BUFFER, &gb}, out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_SLICE_GRAD_OPERATOR_DESC sg = {&g, &out, 4, offsets, window, strides};
  DML_OPERATOR_DESC op = {DML_OPERATOR_SLICE_GRAD, &sg};
  const float expected[16] = {0, 0, 0, 0, 0, 6, 0, 8, 0, 0, 0, 0, 0, 14, 0, 16};
  float x[4] = {14, 16, 6, 8}, y[16];
  strided_buffer input = buf(x, sizeof x);
  memset(y, 0xFF, sizeof y);
  CHECK_STATUS(run(&op, &input, 1, y, sizeof y), STRIDED_OK);
  CHECK(memcmp(y, expected, sizeof y) == 0);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_3_0);
  strides[3] = 0;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("SliceGradDesc.input_window_strides[3]");
  sg.DimensionCount = 9;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_SLICE_GRAD_OPERATOR_DESC.DimensionCount: must be at most 8");
}

/* DiagonalMatrix (v0: Offset, a FLOAT Value; SPEC 3.12): Offset 1, {1,1,3,3} FLOAT32 ->
 * [[0,1,0],[0,0,1],[0,0,0]], lowest level 2_0; Value 7.5f into INT32 is 7 (Cast rules). */
static void test_diagonal_matrix(void) {
  const uint32_t sizes[4] = {1, 1, 3, 3};
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes, NULL, 36);
  DML_TENSOR_DESC out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_DIAGONAL_MATRIX_OPERATOR_DESC dm = {&out, 1, 1.0f};
  DML_OPERATOR_DESC op = {DML_OPERATOR_DIAGONAL_MATRIX, &dm};
  const float expected[9] = {0, 1, 0, 0, 0, 1, 0, 0, 0};
  const int32_t expected_i[9] = {0, 7, 0, 0, 0, 7, 0, 0, 0};
  float y[9];
  int32_t yi[9];
  memset(y, 0xFF, sizeof y);
  CHECK_STATUS(run(&op, NULL, 0, y, sizeof y), STRIDED_OK);
  CHECK(memcmp(y, expected, sizeof y) == 0);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_2_0);
  ob.DataType = DML_TENSOR_DATA_TYPE_INT32;
  dm.Value = 7.5f;
  memset(yi, 0xFF, sizeof yi);
  CHECK_STATUS(run(&op, NULL, 0, yi, sizeof yi), STRIDED_OK);
  CHECK(memcmp(yi, expected_i, sizeof yi) == 0);
  dm.Offset = INT32_MAX;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_DIAGONAL_MATRIX_OPERATOR_DESC.Offset: must be below 2147483647");
}

/* DiagonalMatrix1 (SPEC 3.12): input I {4,5} INT32, value 0, begin INT32_MIN, end 1 ->
 * the strict upper triangle kept; without input, {4,5}, value 7, begin 0, end 3 -> the band.
 * One diagonal without input is what v0 can say (the C++ description alone: 2_0), but this
 * struct is 5_1's. */
static void test_diagonal_matrix1(void) {
  const uint32_t sizes[2] = {4, 5}, sizes4[4] = {1, 1, 3, 3};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_INT32, 2, sizes, NULL, 80);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_INT32, 2, sizes, NULL, 80);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_DIAGONAL_MATRIX1_OPERATOR_DESC dm;
  DML_OPERATOR_DESC op = {DML_OPERATOR_DIAGONAL_MATRIX1, &dm};
  const int32_t x[20] = {4, 7, 3, 7, 9, 1, 2, 8, 6, 9, 9, 4, 1, 8, 7, 4, 3, 4, 2, 4};
  const int32_t upper[20] = {0, 7, 3, 7, 9, 0, 0, 8, 6, 9, 0, 0, 0, 8, 7, 0, 0, 0, 0, 4};
  const int32_t band[20] = {7, 7, 7, 0, 0, 0, 7, 7, 7, 0, 0, 0, 7, 7, 7, 0, 0, 0, 7, 7};
  int32_t y[20];
  strided_buffer input = buf((void*)x, sizeof x);
  memset(&dm, 0, sizeof dm);
  dm.InputTensor = &in;
  dm.OutputTensor = &out;
  dm.ValueDataType = DML_TENSOR_DATA_TYPE_INT32;
  dm.Value.Int32 = 0;
  dm.DiagonalFillBegin = INT32_MIN;
  dm.DiagonalFillEnd = 1;
  memset(y, 0xFF, sizeof y);
  CHECK_STATUS(run(&op, &input, 1, y, sizeof y), STRIDED_OK);
  CHECK(memcmp(y, upper, sizeof y) == 0);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_5_1);
  dm.InputTensor = NULL; /* optional: no input, no buffer */
  dm.Value.Int32 = 7;
  dm.DiagonalFillBegin = 0;
  dm.DiagonalFillEnd = 3;
  memset(y, 0xFF, sizeof y);
  CHECK_STATUS(run(&op, NULL, 0, y, sizeof y), STRIDED_OK);
  CHECK(memcmp(y, band, sizeof y) == 0);
  ob = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, sizes4, NULL, 36);
  dm.ValueDataType = DML_TENSOR_DATA_TYPE_FLOAT32;
  dm.Value.Float32 = 1.0f;
  dm.DiagonalFillBegin = 1;
  dm.DiagonalFillEnd = 2;
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_5_1);
  CHECK_STATUS(strided_validate(&op, DML_FEATURE_LEVEL_5_0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("needs feature level FL_5_1");
  dm.ValueDataType = DML_TENSOR_DATA_TYPE_FLOAT64; /* the value's type must be the output's */
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DiagonalMatrixDesc.value");
  dm.InputTensor = &in;
  in.Type = DML_TENSOR_TYPE_INVALID;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_DIAGONAL_MATRIX1_OPERATOR_DESC.InputTensor->Type: must be DML_TENSOR_TYPE_BUFFER");
}

/* FillValueSequence (SPEC 3.13): INT8 start 120, delta 5, {2,3} -> [[120,125,-126],[-121,-116,-111]]
 * (lowest level 4_0: two dimensions); FLOAT16 start 1.0 (0x3C00), delta 0.5 (0x3800), {1,1,1,4}
 * -> 1.0, 1.5, 2.0, 2.5 = 0x3C00, 0x3E00, 0x4000, 0x4100 (level 2_1). */
static void test_fill_value_sequence(void) {
  const uint32_t sizes[2] = {2, 3}, sizes4[4] = {1, 1, 1, 4};
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_INT8, 2, sizes, NULL, 8); /* rounded up to 4 */
  DML_TENSOR_DESC out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC fs;
  DML_OPERATOR_DESC op = {DML_OPERATOR_FILL_VALUE_SEQUENCE, &fs};
  const int8_t expected[6] = {120, 125, -126, -121, -116, -111};
  const uint16_t expected_h[4] = {0x3C00, 0x3E00, 0x4000, 0x4100};
  int8_t y[8];
  uint16_t h[4];
  memset(&fs, 0, sizeof fs);
  fs.OutputTensor = &out;
  fs.ValueDataType = DML_TENSOR_DATA_TYPE_INT8;
  fs.ValueStart.Int8 = 120;
  fs.ValueDelta.Int8 = 5;
  memset(y, 0x55, sizeof y);
  CHECK_STATUS(run(&op, NULL, 0, y, sizeof y), STRIDED_OK);
  CHECK(memcmp(y, expected, sizeof expected) == 0 && y[6] == 0x55 && y[7] == 0x55);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_4_0);
  ob = buffer(DML_TENSOR_DATA_TYPE_FLOAT16, 4, sizes4, NULL, 8);
  memset(&fs.ValueStart, 0, sizeof fs.ValueStart);
  memset(&fs.ValueDelta, 0, sizeof fs.ValueDelta);
  fs.ValueDataType = DML_TENSOR_DATA_TYPE_FLOAT16;
  fs.ValueStart.UInt16 = 0x3C00;
  fs.ValueDelta.UInt16 = 0x3800;
  memset(h, 0, sizeof h);
  CHECK_STATUS(run(&op, NULL, 0, h, sizeof h), STRIDED_OK);
  CHECK(memcmp(h, expected_h, sizeof h) == 0);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_2_1);
  fs.ValueDataType = DML_TENSOR_DATA_TYPE_FLOAT32;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("FillValueSequenceDesc.value_start");
}

/* NonzeroCoordinates (SPEC 3.14.1): in {1,1,2,4} FLOAT32 [[1,0,0,2],[-0.0,3.5,0,-5.2]] -> count 4;
 * coordinates {1,1,8,3}: [0,0,0],[0,0,3],[0,1,1],[0,1,3], then four rows of zeros. Two outputs,
 * in the struct's order. Lowest level 3_0. */
static void test_nonzero_coordinates(void) {
  const uint32_t in_sizes[4] = {1, 1, 2, 4}, count_sizes[4] = {1, 1, 1, 1}, coord_sizes[4] = {1, 1, 8, 3};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, in_sizes, NULL, 32);
  DML_BUFFER_TENSOR_DESC nb = buffer(DML_TENSOR_DATA_TYPE_UINT32, 4, count_sizes, NULL, 4);
  DML_BUFFER_TENSOR_DESC cb = buffer(DML_TENSOR_DATA_TYPE_UINT32, 4, coord_sizes, NULL, 96);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, count = {DML_TENSOR_TYPE_BUFFER, &nb};
  DML_TENSOR_DESC coords = {DML_TENSOR_TYPE_BUFFER, &cb};
  DML_NONZERO_COORDINATES_OPERATOR_DESC nz = {&in, &count, &coords};
  DML_OPERATOR_DESC op = {DML_OPERATOR_NONZERO_COORDINATES, &nz};
  const uint32_t expected[24] = {0, 0, 0, 0, 0, 3, 0, 1, 1, 0, 1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
  float x[8] = {1, 0, 0, 2, -0.0f, 3.5f, 0, -5.2f};
  uint32_t k = 0, c[24];
  strided_operator* compiled = NULL;
  strided_buffer input = buf(x, sizeof x), outputs[2];
  memset(c, 0xFF, sizeof c);
  outputs[0] = buf(&k, sizeof k);
  outputs[1] = buf(c, sizeof c);
  CHECK_STATUS(strided_compile(&op, NULL, &compiled), STRIDED_OK);
  CHECK_STATUS(strided_execute(compiled, &input, 1, outputs, 2), STRIDED_OK);
  strided_release(compiled);
  CHECK(k == 4);
  CHECK(memcmp(c, expected, sizeof c) == 0);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_3_0);
  nz.OutputCountTensor = NULL;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_NONZERO_COORDINATES_OPERATOR_DESC.OutputCountTensor: must not be NULL");
}

/* MaxUnpooling (SPEC 3.14.2): in {1,1,2,2} [[5,6],[7,8]], idx UINT32 [[1,3],[8,15]], out {1,1,4,4}
 * -> [[0,5,0,6],[0,0,0,0],[7,0,0,0],[0,0,0,8]]. Lowest level 2_0; an index of 16 (= the output's
 * element count) is an INDEX_ERROR with nothing written. */
static void test_max_unpooling(void) {
  const uint32_t in_sizes[4] = {1, 1, 2, 2}, out_sizes[4] = {1, 1, 4, 4};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, in_sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC xb = buffer(DML_TENSOR_DATA_TYPE_UINT32, 4, in_sizes, NULL, 16);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_FLOAT32, 4, out_sizes, NULL, 64);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, idx = {DML_TENSOR_TYPE_BUFFER, &xb};
  DML_TENSOR_DESC out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_MAX_UNPOOLING_OPERATOR_DESC mu = {&in, &idx, &out};
  DML_OPERATOR_DESC op = {DML_OPERATOR_MAX_UNPOOLING, &mu};
  const float expected[16] = {0, 5, 0, 6, 0, 0, 0, 0, 7, 0, 0, 0, 0, 0, 0, 8};
  float x[4] = {5, 6, 7, 8}, y[16];
  uint32_t indices[4] = {1, 3, 8, 15};
  strided_buffer inputs[2];
  int i, untouched = 1;
  inputs[0] = buf(x, sizeof x);
  inputs[1] = buf(indices, sizeof indices);
  memset(y, 0xFF, sizeof y);
  CHECK_STATUS(run(&op, inputs, 2, y, sizeof y), STRIDED_OK);
  CHECK(memcmp(y, expected, sizeof y) == 0);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_2_0);
  indices[2] = 16;
  for (i = 0; i < 16; ++i) y[i] = -1;
  CHECK_STATUS(run(&op, inputs, 2, y, sizeof y), STRIDED_INDEX_ERROR);
  for (i = 0; i < 16; ++i) untouched = untouched && y[i] == -1;
  CHECK(untouched);
}

/* Unfold (SPEC 3.14.3, the 1-d example): in {1,2,5} FLOAT64 = [[1..5],[6..10]], window 2, stride 2,
 * dilation 2, start 1, end 0 -> {1,4,2} [[0,2],[2,4],[0,7],[7,9]]. Only 6_4 accepts it. */
static void test_unfold(void) {
  const uint32_t in_sizes[3] = {1, 2, 5}, out_sizes[3] = {1, 4, 2};
  const uint32_t window[1] = {2}, stride[1] = {2}, dilation[1] = {2}, start[1] = {1}, end[1] = {0};
  DML_BUFFER_TENSOR_DESC ib = buffer(DML_TENSOR_DATA_TYPE_FLOAT64, 3, in_sizes, NULL, 80);
  DML_BUFFER_TENSOR_DESC ob = buffer(DML_TENSOR_DATA_TYPE_FLOAT64, 3, out_sizes, NULL, 64);
  DML_TENSOR_DESC in = {DML_TENSOR_TYPE_BUFFER, &ib}, out = {DML_TENSOR_TYPE_BUFFER, &ob};
  DML_UNFOLD_OPERATOR_DESC uf = {&in, &out, 1, window, stride, dilation, start, end};
  DML_OPERATOR_DESC op = {DML_OPERATOR_UNFOLD, &uf};
  const double expected[8] = {0, 2, 2, 4, 0, 7, 7, 9};
  double x[10], y[8];
  strided_buffer input = buf(x, sizeof x);
  int i;
  for (i = 0; i < 10; ++i) x[i] = i + 1;
  memset(y, 0xFF, sizeof y);
  CHECK_STATUS(run(&op, &input, 1, y, sizeof y), STRIDED_OK);
  CHECK(memcmp(y, expected, sizeof y) == 0);
  CHECK(min_level(&op) == DML_FEATURE_LEVEL_6_4);
  CHECK_STATUS(strided_validate(&op, DML_FEATURE_LEVEL_6_3), STRIDED_VALIDATION_ERROR);
  uf.Dilations = NULL;
  CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
  CHECK_MESSAGE("DML_UNFOLD_OPERATOR_DESC.Dilations: must not be NULL (1 values expected)");
}

int main(void) {
  test_slice();
  test_join();
  test_gather();
  test_gather_elements();
  test_gather_nd();
  test_gather_nd_counts();
  test_scatter_nd();
  test_depth_to_space();
  test_fill_float16();
  test_padding();
  test_one_hot();
  test_reverse_subsequences();
  test_slice_grad();
  test_diagonal_matrix();
  test_diagonal_matrix1();
  test_fill_value_sequence();
  test_nonzero_coordinates();
  test_max_unpooling();
  test_unfold();
  return report("test_directml_ops");
}
