// strided::xla: XLA shapes, layouts and index arithmetic (SPEC.md section 5).
#pragma once
namespace strided::xla {}
