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

/* The operators whose C++ descriptions are not in this build: each a clear VALIDATION_ERROR. */
static void test_not_supported_yet(void) {
  static const DML_OPERATOR_TYPE types[] = {DML_OPERATOR_PADDING,
                                            DML_OPERATOR_PADDING1,
                                            DML_OPERATOR_ONE_HOT,
                                            DML_OPERATOR_REVERSE_SUBSEQUENCES,
                                            DML_OPERATOR_SLICE_GRAD,
                                            DML_OPERATOR_DIAGONAL_MATRIX,
                                            DML_OPERATOR_DIAGONAL_MATRIX1,
                                            DML_OPERATOR_FILL_VALUE_SEQUENCE,
                                            DML_OPERATOR_NONZERO_COORDINATES,
                                            DML_OPERATOR_MAX_UNPOOLING,
                                            DML_OPERATOR_UNFOLD};
  DML_UNFOLD_OPERATOR_DESC any; /* never read */
  DML_OPERATOR_DESC op;
  size_t i;
  memset(&any, 0, sizeof any);
  op.Desc = &any;
  for (i = 0; i < sizeof types / sizeof types[0]; ++i) {
    op.Type = types[i];
    CHECK_STATUS(strided_validate(&op, (DML_FEATURE_LEVEL)0), STRIDED_VALIDATION_ERROR);
    CHECK_MESSAGE("_OPERATOR_DESC is not supported yet");
  }
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
  test_not_supported_yet();
  return report("test_directml_ops");
}
