/* strided: the C API, in DirectML's own vocabulary (API.md section "C").
 *
 * The data-movement subset of DirectML.h: the same type names, enum values, field names, field
 * order and field types, so that a DirectML operator description built for the GPU runs here on
 * CPU buffers. Plain C99 (and valid C++). When DirectML.h was included first (its guard
 * DIRECTML_H is defined), its own definitions are used instead and real DirectML code passes its
 * structs unchanged; include DirectML.h before this header, not after.
 *
 * Library: strided_c (CMake: find_package(strided) + strided::strided_c; pkg-config: strided).
 * Nothing is thrown across this boundary: every function returns a status, and
 * strided_last_error() gives this thread's message (the same text as the C++ exception's).
 */
#ifndef STRIDED_DIRECTML_H
#define STRIDED_DIRECTML_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && !defined(STRIDED_C_STATIC)
#if defined(STRIDED_C_BUILDING)
#define STRIDED_C_API __declspec(dllexport)
#else
#define STRIDED_C_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define STRIDED_C_API __attribute__((visibility("default")))
#else
#define STRIDED_C_API
#endif

#ifndef DIRECTML_H /* ------------------------------------------- DirectML.h's definitions */

/* DirectML.h declares these as `static const UINT`; enumerators keep C99 free of unused-variable
 * warnings in every file that includes the header. */
enum {
  DML_TENSOR_DIMENSION_COUNT_MAX = 5,
  DML_TENSOR_DIMENSION_COUNT_MAX1 = 8,
  DML_TEMPORARY_BUFFER_ALIGNMENT = 256,
  DML_PERSISTENT_BUFFER_ALIGNMENT = 256,
  DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT = 16
};

typedef enum DML_TENSOR_DATA_TYPE {
  DML_TENSOR_DATA_TYPE_UNKNOWN = 0,
  DML_TENSOR_DATA_TYPE_FLOAT32 = 1,
  DML_TENSOR_DATA_TYPE_FLOAT16 = 2,
  DML_TENSOR_DATA_TYPE_UINT32 = 3,
  DML_TENSOR_DATA_TYPE_UINT16 = 4,
  DML_TENSOR_DATA_TYPE_UINT8 = 5,
  DML_TENSOR_DATA_TYPE_INT32 = 6,
  DML_TENSOR_DATA_TYPE_INT16 = 7,
  DML_TENSOR_DATA_TYPE_INT8 = 8,
  DML_TENSOR_DATA_TYPE_FLOAT64 = 9,
  DML_TENSOR_DATA_TYPE_UINT64 = 10,
  DML_TENSOR_DATA_TYPE_INT64 = 11
} DML_TENSOR_DATA_TYPE;

typedef enum DML_TENSOR_TYPE { DML_TENSOR_TYPE_INVALID = 0, DML_TENSOR_TYPE_BUFFER = 1 } DML_TENSOR_TYPE;

typedef enum DML_TENSOR_FLAGS { DML_TENSOR_FLAG_NONE = 0x0, DML_TENSOR_FLAG_OWNED_BY_DML = 0x1 } DML_TENSOR_FLAGS;

typedef struct DML_BUFFER_TENSOR_DESC {
  DML_TENSOR_DATA_TYPE DataType;
  DML_TENSOR_FLAGS Flags;
  uint32_t DimensionCount;
  const uint32_t* Sizes;   /* DimensionCount values */
  const uint32_t* Strides; /* DimensionCount values, in elements; NULL = packed row-major */
  uint64_t TotalTensorSizeInBytes;
  uint32_t GuaranteedBaseOffsetAlignment;
} DML_BUFFER_TENSOR_DESC;

typedef struct DML_TENSOR_DESC {
  DML_TENSOR_TYPE Type;
  const void* Desc; /* a DML_BUFFER_TENSOR_DESC for DML_TENSOR_TYPE_BUFFER */
} DML_TENSOR_DESC;

/* DirectML's numbers for the operators of this subset (the enum in DirectML.h counts through
 * every operator; only the values below are meaningful here). */
typedef enum DML_OPERATOR_TYPE {
  DML_OPERATOR_INVALID = 0,
  DML_OPERATOR_ELEMENT_WISE_IDENTITY = 1,
  DML_OPERATOR_SLICE = 60,
  DML_OPERATOR_CAST = 61,
  DML_OPERATOR_SPLIT = 62,
  DML_OPERATOR_JOIN = 63,
  DML_OPERATOR_PADDING = 64,
  DML_OPERATOR_GATHER = 67,
  DML_OPERATOR_SPACE_TO_DEPTH = 68,
  DML_OPERATOR_DEPTH_TO_SPACE = 69,
  DML_OPERATOR_TILE = 70,
  DML_OPERATOR_MAX_UNPOOLING = 92,
  DML_OPERATOR_DIAGONAL_MATRIX = 93,
  DML_OPERATOR_SCATTER_ELEMENTS = 94,
  DML_OPERATOR_SCATTER = DML_OPERATOR_SCATTER_ELEMENTS,
  DML_OPERATOR_ONE_HOT = 95,
  DML_OPERATOR_FILL_VALUE_CONSTANT = 103,
  DML_OPERATOR_FILL_VALUE_SEQUENCE = 104,
  DML_OPERATOR_REVERSE_SUBSEQUENCES = 106,
  DML_OPERATOR_GATHER_ELEMENTS = 107,
  DML_OPERATOR_GATHER_ND = 108,
  DML_OPERATOR_SCATTER_ND = 109,
  DML_OPERATOR_SLICE1 = 111,
  DML_OPERATOR_DEPTH_TO_SPACE1 = 113,
  DML_OPERATOR_SPACE_TO_DEPTH1 = 114,
  DML_OPERATOR_NONZERO_COORDINATES = 133,
  DML_OPERATOR_SLICE_GRAD = 135,
  DML_OPERATOR_GATHER_ND1 = 140,
  DML_OPERATOR_PADDING1 = 155,
  DML_OPERATOR_DIAGONAL_MATRIX1 = 163,
  DML_OPERATOR_UNFOLD = 177
} DML_OPERATOR_TYPE;

typedef enum DML_PADDING_MODE {
  DML_PADDING_MODE_CONSTANT = 0,
  DML_PADDING_MODE_EDGE = 1,
  DML_PADDING_MODE_REFLECTION = 2,
  DML_PADDING_MODE_SYMMETRIC = 3,
  DML_PADDING_MODE_WRAP = 4
} DML_PADDING_MODE;

typedef enum DML_DEPTH_SPACE_ORDER {
  DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW = 0,
  DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH = 1
} DML_DEPTH_SPACE_ORDER;

typedef struct DML_SCALE_BIAS {
  float Scale;
  float Bias;
} DML_SCALE_BIAS;

typedef union DML_SCALAR_UNION {
  uint8_t Bytes[8];
  int8_t Int8;
  uint8_t UInt8;
  int16_t Int16;
  uint16_t UInt16;
  int32_t Int32;
  uint32_t UInt32;
  int64_t Int64;
  uint64_t UInt64;
  float Float32;
  double Float64;
} DML_SCALAR_UNION;

typedef enum DML_FEATURE_LEVEL {
  DML_FEATURE_LEVEL_1_0 = 0x1000,
  DML_FEATURE_LEVEL_2_0 = 0x2000,
  DML_FEATURE_LEVEL_2_1 = 0x2100,
  DML_FEATURE_LEVEL_3_0 = 0x3000,
  DML_FEATURE_LEVEL_3_1 = 0x3100,
  DML_FEATURE_LEVEL_4_0 = 0x4000,
  DML_FEATURE_LEVEL_4_1 = 0x4100,
  DML_FEATURE_LEVEL_5_0 = 0x5000,
  DML_FEATURE_LEVEL_5_1 = 0x5100,
  DML_FEATURE_LEVEL_5_2 = 0x5200,
  DML_FEATURE_LEVEL_6_0 = 0x6000,
  DML_FEATURE_LEVEL_6_1 = 0x6100,
  DML_FEATURE_LEVEL_6_2 = 0x6200,
  DML_FEATURE_LEVEL_6_3 = 0x6300,
  DML_FEATURE_LEVEL_6_4 = 0x6400
} DML_FEATURE_LEVEL;

typedef struct DML_OPERATOR_DESC {
  DML_OPERATOR_TYPE Type;
  const void* Desc; /* the DML_<OP>_OPERATOR_DESC of Type */
} DML_OPERATOR_DESC;

/* ---- operator descriptions, in DirectML.h's order ---- */

typedef struct DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  const DML_SCALE_BIAS* ScaleBias; /* may be NULL in DirectML; strided requires NULL */
} DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC;

typedef struct DML_SLICE_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t DimensionCount;
  const uint32_t* Offsets;
  const uint32_t* Sizes;
  const uint32_t* Strides;
} DML_SLICE_OPERATOR_DESC;

typedef struct DML_CAST_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
} DML_CAST_OPERATOR_DESC;

typedef struct DML_SPLIT_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  uint32_t OutputCount;
  const DML_TENSOR_DESC* OutputTensors; /* OutputCount descriptions */
  uint32_t Axis;
} DML_SPLIT_OPERATOR_DESC;

typedef struct DML_JOIN_OPERATOR_DESC {
  uint32_t InputCount;
  const DML_TENSOR_DESC* InputTensors; /* InputCount descriptions */
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t Axis;
} DML_JOIN_OPERATOR_DESC;

typedef struct DML_PADDING_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  DML_PADDING_MODE PaddingMode;
  float PaddingValue;
  uint32_t DimensionCount;
  const uint32_t* StartPadding;
  const uint32_t* EndPadding;
} DML_PADDING_OPERATOR_DESC;

typedef struct DML_GATHER_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* IndicesTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t Axis;
  uint32_t IndexDimensions;
} DML_GATHER_OPERATOR_DESC;

typedef struct DML_SPACE_TO_DEPTH_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t BlockSize;
} DML_SPACE_TO_DEPTH_OPERATOR_DESC;

typedef struct DML_DEPTH_TO_SPACE_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t BlockSize;
} DML_DEPTH_TO_SPACE_OPERATOR_DESC;

typedef struct DML_TILE_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t RepeatsCount;
  const uint32_t* Repeats;
} DML_TILE_OPERATOR_DESC;

typedef struct DML_MAX_UNPOOLING_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* IndicesTensor;
  const DML_TENSOR_DESC* OutputTensor;
} DML_MAX_UNPOOLING_OPERATOR_DESC;

typedef struct DML_DIAGONAL_MATRIX_OPERATOR_DESC {
  const DML_TENSOR_DESC* OutputTensor;
  int32_t Offset;
  float Value;
} DML_DIAGONAL_MATRIX_OPERATOR_DESC;

typedef struct DML_SCATTER_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* IndicesTensor;
  const DML_TENSOR_DESC* UpdatesTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t Axis;
} DML_SCATTER_OPERATOR_DESC;

typedef struct DML_ONE_HOT_OPERATOR_DESC {
  const DML_TENSOR_DESC* IndicesTensor;
  const DML_TENSOR_DESC* ValuesTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t Axis;
} DML_ONE_HOT_OPERATOR_DESC;

typedef struct DML_FILL_VALUE_CONSTANT_OPERATOR_DESC {
  const DML_TENSOR_DESC* OutputTensor;
  DML_TENSOR_DATA_TYPE ValueDataType;
  DML_SCALAR_UNION Value;
} DML_FILL_VALUE_CONSTANT_OPERATOR_DESC;

typedef struct DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC {
  const DML_TENSOR_DESC* OutputTensor;
  DML_TENSOR_DATA_TYPE ValueDataType;
  DML_SCALAR_UNION ValueStart;
  DML_SCALAR_UNION ValueDelta;
} DML_FILL_VALUE_SEQUENCE_OPERATOR_DESC;

typedef struct DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* SequenceLengthsTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t Axis;
} DML_REVERSE_SUBSEQUENCES_OPERATOR_DESC;

typedef struct DML_GATHER_ELEMENTS_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* IndicesTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t Axis;
} DML_GATHER_ELEMENTS_OPERATOR_DESC;

/* Alias, symmetric with DML_GATHER_ELEMENTS_OPERATOR_DESC (DirectML.h: a C++ `using`). */
typedef DML_SCATTER_OPERATOR_DESC DML_SCATTER_ELEMENTS_OPERATOR_DESC;

typedef struct DML_GATHER_ND_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* IndicesTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t InputDimensionCount;
  uint32_t IndicesDimensionCount;
} DML_GATHER_ND_OPERATOR_DESC;

typedef struct DML_SCATTER_ND_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* IndicesTensor;
  const DML_TENSOR_DESC* UpdatesTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t InputDimensionCount;
  uint32_t IndicesDimensionCount;
} DML_SCATTER_ND_OPERATOR_DESC;

typedef struct DML_SLICE1_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t DimensionCount;
  const uint32_t* InputWindowOffsets;
  const uint32_t* InputWindowSizes;
  const int32_t* InputWindowStrides;
} DML_SLICE1_OPERATOR_DESC;

typedef struct DML_DEPTH_TO_SPACE1_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t BlockSize;
  DML_DEPTH_SPACE_ORDER Order;
} DML_DEPTH_TO_SPACE1_OPERATOR_DESC;

typedef struct DML_SPACE_TO_DEPTH1_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t BlockSize;
  DML_DEPTH_SPACE_ORDER Order;
} DML_SPACE_TO_DEPTH1_OPERATOR_DESC;

typedef struct DML_NONZERO_COORDINATES_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputCountTensor;
  const DML_TENSOR_DESC* OutputCoordinatesTensor;
} DML_NONZERO_COORDINATES_OPERATOR_DESC;

typedef struct DML_SLICE_GRAD_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputGradientTensor;
  const DML_TENSOR_DESC* OutputGradientTensor;
  uint32_t DimensionCount;
  const uint32_t* InputWindowOffsets;
  const uint32_t* InputWindowSizes;
  const int32_t* InputWindowStrides;
} DML_SLICE_GRAD_OPERATOR_DESC;

typedef struct DML_GATHER_ND1_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* IndicesTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t InputDimensionCount;
  uint32_t IndicesDimensionCount;
  uint32_t BatchDimensionCount;
} DML_GATHER_ND1_OPERATOR_DESC;

typedef struct DML_PADDING1_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  DML_PADDING_MODE PaddingMode;
  DML_TENSOR_DATA_TYPE PaddingValueDataType;
  DML_SCALAR_UNION PaddingValue;
  uint32_t DimensionCount;
  const uint32_t* StartPadding;
  const uint32_t* EndPadding;
} DML_PADDING1_OPERATOR_DESC;

typedef struct DML_DIAGONAL_MATRIX1_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor; /* may be NULL */
  const DML_TENSOR_DESC* OutputTensor;
  DML_TENSOR_DATA_TYPE ValueDataType;
  DML_SCALAR_UNION Value;
  int32_t DiagonalFillBegin;
  int32_t DiagonalFillEnd;
} DML_DIAGONAL_MATRIX1_OPERATOR_DESC;

typedef struct DML_UNFOLD_OPERATOR_DESC {
  const DML_TENSOR_DESC* InputTensor;
  const DML_TENSOR_DESC* OutputTensor;
  uint32_t DimensionCount;
  const uint32_t* WindowSizes;
  const uint32_t* Strides;
  const uint32_t* Dilations;
  const uint32_t* StartPadding;
  const uint32_t* EndPadding;
} DML_UNFOLD_OPERATOR_DESC;

#endif /* !DIRECTML_H ------------------------------------------------------------------------ */

#ifdef __cplusplus
extern "C" {
#endif

/* What every function returns. A failure also sets this thread's message (strided_last_error). */
typedef enum strided_status {
  STRIDED_OK = 0,
  STRIDED_VALIDATION_ERROR = 1, /* a description breaks a rule (or is malformed: NULL, counts) */
  STRIDED_INDEX_ERROR = 2,      /* an index tensor holds a value out of range (execute) */
  STRIDED_BUFFER_ERROR = 3,     /* a buffer is missing, NULL, too short or of the wrong count */
  STRIDED_OUT_OF_MEMORY = 4,
  STRIDED_INTERNAL_ERROR = 5
} strided_status;

/* A CPU buffer. Inputs are only read (the pointer is not const so that one type serves both). */
typedef struct strided_buffer {
  void* data;
  uint64_t size_in_bytes; /* at least the tensor's TotalTensorSizeInBytes */
} strided_buffer;

typedef struct strided_compile_options {
  int threads; /* threads for this operator; 0 = the process-wide setting at each execute */
} strided_compile_options;

/* A compiled operator: immutable; one may be executed from several threads at once. */
typedef struct strided_operator strided_operator;

/* Checks `op` against DirectML's rules at `level`; level 0 = no particular level (what
 * strided_compile accepts: the newest level plus strided's extensions). */
STRIDED_C_API strided_status strided_validate(const DML_OPERATOR_DESC* op, DML_FEATURE_LEVEL level);
/* The lowest feature level that accepts `op`, in *level (untouched on failure). */
STRIDED_C_API strided_status strided_min_feature_level(const DML_OPERATOR_DESC* op, DML_FEATURE_LEVEL* level);
/* Validates and plans `op`; *compiled is NULL on failure. `opts` may be NULL. The description and
 * the arrays it points to may be freed once this returns. */
STRIDED_C_API strided_status strided_compile(const DML_OPERATOR_DESC* op, const strided_compile_options* opts,
                                             strided_operator** compiled);
/* Runs a compiled operator. Buffers in the struct's field order (input, indices, updates; the
 * Join inputs; the Split outputs); a NULL optional tensor takes no buffer. On failure no output
 * byte has been written. */
STRIDED_C_API strided_status strided_execute(const strided_operator* compiled, const strided_buffer* inputs,
                                             size_t input_count, const strided_buffer* outputs, size_t output_count);
/* Frees a compiled operator; NULL is fine. */
STRIDED_C_API void strided_release(strided_operator* compiled);
/* This thread's message for its last failed call ("" after a successful one); valid until this
 * thread's next strided_* call. */
STRIDED_C_API const char* strided_last_error(void);
/* "0.1.0". */
STRIDED_C_API const char* strided_version(void);

#ifdef __cplusplus
}
#endif

#endif /* STRIDED_DIRECTML_H */
