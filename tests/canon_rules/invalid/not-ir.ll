; Invalid: not LLVM IR at all.
define i32 @f( {
  this is not an instruction
}
