// Operations on LLVM IR that the LLVM C API does not offer. Each is a few
// lines of LLVM's C++ API behind a C signature; everything else goes through
// llvm-sys / inkwell. Keep this file tiny.
#include "llvm-c/Core.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Verifier.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/TypeFinder.h"
#include "llvm/IR/ModuleSlotTracker.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace llvm;

extern "C" {

// Moves a function to the end of its module's function list.
void irgit_move_function_to_end(LLVMValueRef F) {
  Function *Fn = unwrap<Function>(F);
  Module *M = Fn->getParent();
  Fn->removeFromParent();
  M->getFunctionList().push_back(Fn);
}

// Moves a global variable to the end of its module's global list.
void irgit_move_global_to_end(LLVMValueRef G) {
  GlobalVariable *GV = unwrap<GlobalVariable>(G);
  Module *M = GV->getParent();
  GV->removeFromParent();
  M->insertGlobalVariable(GV);
}

// Moves an alias to the end of its module's alias list.
void irgit_move_alias_to_end(LLVMValueRef A) {
  GlobalAlias *GA = unwrap<GlobalAlias>(A);
  Module *M = GA->getParent();
  GA->removeFromParent();
  M->insertAlias(GA);
}

// Swaps the two operands of an icmp/fcmp and mirrors its predicate
// (`icmp sgt a, b` becomes `icmp slt b, a`).
void irgit_cmp_swap_operands(LLVMValueRef I) {
  unwrap<CmpInst>(I)->swapOperands();
}

// Sets incoming pair `Idx` of a PHI node.
void irgit_phi_set_incoming(LLVMValueRef Phi, unsigned Idx, LLVMValueRef V,
                            LLVMBasicBlockRef BB) {
  PHINode *P = unwrap<PHINode>(Phi);
  P->setIncomingValue(Idx, unwrap(V));
  P->setIncomingBlock(Idx, unwrap(BB));
}

// Moves instruction I to the end of its own basic block. Calling this for
// every instruction of a block in a chosen order leaves the block in that order.
// The debug records attached to I (#dbg_value... just above it) move with it:
// a plain moveBefore would leave them behind, where they can end up on a PHI.
void irgit_move_to_block_end(LLVMValueRef I) {
  Instruction *Inst = unwrap<Instruction>(I);
  BasicBlock *BB = Inst->getParent();
  Inst->moveBeforePreserving(*BB, BB->end());
}

// 1 if the instruction may write memory or have other side effects
// (LLVM's own Instruction::mayHaveSideEffects / mayWriteToMemory), else 0.
int irgit_may_have_side_effects(LLVMValueRef I) {
  Instruction *Inst = unwrap<Instruction>(I);
  return Inst->mayHaveSideEffects() || Inst->mayWriteToMemory() ? 1 : 0;
}

// 1 if the instruction may read memory (loads, calls, atomics...), else 0.
int irgit_may_read_memory(LLVMValueRef I) {
  return unwrap<Instruction>(I)->mayReadFromMemory() ? 1 : 0;
}

// 1 if the instruction is an operation whose operands may be swapped freely.
int irgit_is_commutative(LLVMValueRef I) {
  return unwrap<Instruction>(I)->isCommutative() ? 1 : 0;
}

} // extern "C"

extern "C" {

// Sorts the use list of every block of F by the layout position of the
// block holding the using terminator, so that LLVM's printer lists
// `; preds = ...` in block order rather than in use-list (history) order.
// Uses that are not instructions (blockaddress) go last.
void irgit_sort_block_uses(LLVMValueRef F) {
  Function *Fn = unwrap<Function>(F);
  DenseMap<const BasicBlock *, unsigned> Index;
  unsigned N = 0;
  for (BasicBlock &BB : *Fn)
    Index[&BB] = N++;
  auto Key = [&](const Use &U) -> unsigned {
    if (auto *I = dyn_cast<Instruction>(U.getUser()))
      return Index.lookup(I->getParent());
    return ~0u;
  };
  for (BasicBlock &BB : *Fn)
    BB.sortUseList([&](const Use &L, const Use &R) { return Key(L) < Key(R); });
}

} // extern "C"

extern "C" {

// The source variable that alloca A holds, from its one #dbg_declare:
// `name`, or `name arg N` for a parameter; empty when A has no declare or
// several. Free with LLVMDisposeMessage.
char *irgit_declared_variable(LLVMValueRef A) {
  std::string Out;
  auto Declares = findDVRDeclares(unwrap(A));
  if (Declares.size() == 1) {
    DILocalVariable *V = Declares[0]->getVariable();
    Out = V->getName().str();
    if (V->getArg())
      Out += " arg " + std::to_string(V->getArg());
  }
  return LLVMCreateMessage(Out.c_str());
}

// 1 if I is a call, invoke or callbr that is convergent (the call site or
// the callee carries `convergent`), else 0.
int irgit_is_convergent(LLVMValueRef I) {
  auto *CB = dyn_cast<CallBase>(unwrap(I));
  return CB && CB->isConvergent() ? 1 : 0;
}

// How LLVM's printer refers to each of the N global values (`@3`, `@f`),
// one per line, numbered as in a printout of their module (one slot tracker
// for all, so the module is numbered once). Free with LLVMDisposeMessage.
char *irgit_operand_texts(const LLVMValueRef *Vals, size_t N) {
  std::string Out;
  raw_string_ostream OS(Out);
  if (N > 0) {
    ModuleSlotTracker MST(unwrap<GlobalValue>(Vals[0])->getParent());
    for (size_t K = 0; K < N; ++K) {
      unwrap(Vals[K])->printAsOperand(OS, /*PrintType=*/false, MST);
      OS << '\n';
    }
  }
  OS.flush();
  return LLVMCreateMessage(Out.c_str());
}

} // extern "C"

namespace {
// A buffered stream that passes each full buffer to a callback.
class SinkStream : public raw_ostream {
  void (*Sink)(void *, const char *, size_t);
  void *Ctx;
  uint64_t Written = 0;

  void write_impl(const char *Ptr, size_t Size) override {
    Sink(Ctx, Ptr, Size);
    Written += Size;
  }
  uint64_t current_pos() const override { return Written; }

public:
  SinkStream(void (*S)(void *, const char *, size_t), void *C)
      : Sink(S), Ctx(C) {
    SetBufferSize(1 << 16);
  }
  ~SinkStream() override { flush(); }
};
} // namespace

extern "C" {

// Prints module M as textual IR, handing the text to Sink(Ctx, bytes, len)
// in 64 KiB chunks: the caller's buffer is the only copy of the text (a
// string stream would grow and copy its own, then another for the caller).
// LLVMPrintModuleToString writes through an unbuffered string stream, so
// every token would cross formatted_raw_ostream's column tracking on its own.
void irgit_print_module_to(LLVMModuleRef M,
                           void (*Sink)(void *, const char *, size_t),
                           void *Ctx) {
  SinkStream OS(Sink, Ctx);
  unwrap(M)->print(OS, nullptr);
}

} // extern "C"

namespace {
// The named struct types reachable from the metadata attached to functions
// and global variables (`declare !types !0 ...`, `!0 = !{%struct.T poison}`):
// LLVM's printer looks for types in instructions' attachments and named
// metadata only, so a type used nowhere else is printed without its
// definition, and the text does not parse again.
class AttachedTypes {
  SmallPtrSet<const Metadata *, 32> SeenNodes;
  SmallPtrSet<const Value *, 32> SeenValues;
  SmallPtrSet<Type *, 16> SeenTypes;
  SmallVector<const Metadata *, 32> Work;

  void addType(Type *T) {
    SmallVector<Type *, 8> Types{T};
    while (!Types.empty()) {
      Type *Next = Types.pop_back_val();
      if (!SeenTypes.insert(Next).second)
        continue;
      auto *Struct = dyn_cast<StructType>(Next);
      if (Struct && !Struct->isLiteral())
        Named.push_back(Struct);
      for (Type *Sub : Next->subtypes())
        Types.push_back(Sub);
    }
  }

  void addValue(const Value *V) {
    SmallVector<const Value *, 8> Values{V};
    while (!Values.empty()) {
      const Value *Next = Values.pop_back_val();
      if (!SeenValues.insert(Next).second)
        continue;
      addType(Next->getType());
      // A constant's operands (a global is a leaf: its type is printed).
      if (isa<Constant>(Next) && !isa<GlobalValue>(Next))
        for (const Use &Operand : cast<Constant>(Next)->operands())
          Values.push_back(Operand.get());
    }
  }

public:
  SmallVector<StructType *, 4> Named;

  void addNode(const MDNode *Root) {
    Work.push_back(Root);
    while (!Work.empty()) {
      const Metadata *Next = Work.pop_back_val();
      if (!Next || !SeenNodes.insert(Next).second)
        continue;
      if (auto *Wrapped = dyn_cast<ValueAsMetadata>(Next))
        addValue(Wrapped->getValue());
      else if (auto *Node = dyn_cast<MDNode>(Next))
        for (const MDOperand &Operand : Node->operands())
          Work.push_back(Operand.get());
    }
  }
};
} // namespace

extern "C" {

// The definitions (`%T = type { ... }`, one a line) of the named struct
// types that LLVM's printer leaves out of M's text although its metadata
// uses them (see AttachedTypes); empty for nearly every module. Free with
// LLVMDisposeMessage.
char *irgit_types_missing_from_print(LLVMModuleRef M) {
  AttachedTypes Attached;
  SmallVector<std::pair<unsigned, MDNode *>, 4> Attachments;
  for (GlobalObject &Object : unwrap(M)->global_objects()) {
    Object.getAllMetadata(Attachments);
    for (auto &Attachment : Attachments)
      Attached.addNode(Attachment.second);
  }
  std::string Out;
  if (!Attached.Named.empty()) {
    TypeFinder Printed;
    Printed.run(*unwrap(M), /*onlyNamed=*/true);
    SmallPtrSet<StructType *, 16> Known(Printed.begin(), Printed.end());
    raw_string_ostream OS(Out);
    for (StructType *Struct : Attached.Named)
      if (!Known.count(Struct)) {
        Struct->print(OS);
        OS << '\n';
      }
  }
  return LLVMCreateMessage(Out.c_str());
}

} // extern "C"

namespace {
// The value of the module's "Debug Info Version" flag, 0 when it has none.
// Read by hand, as LLVM's own upgrade does: the flags are not verified yet.
unsigned debugInfoVersionFlag(const Module &M) {
  NamedMDNode *Flags = M.getModuleFlagsMetadata();
  if (!Flags)
    return 0;
  for (const MDNode *Flag : Flags->operands()) {
    if (Flag->getNumOperands() < 3)
      continue;
    auto *Key = dyn_cast_or_null<MDString>(Flag->getOperand(1));
    if (!Key || Key->getString() != "Debug Info Version")
      continue;
    if (auto *Value = mdconst::dyn_extract_or_null<ConstantInt>(Flag->getOperand(2)))
      return Value->getZExtValue();
    return 0;
  }
  return 0;
}
} // namespace

extern "C" {

// What LLVM's parser does to debug info once a module is read (its
// UpgradeDebugInfo, which irgit turns off), except that a module that does
// not verify is reported instead of ending the process: a module that
// declares the current debug-info version is verified, and its debug info
// dropped (with LLVM's warning) when only that is broken; any other
// module's debug info is dropped, with a warning when its version is not
// the current one. Returns 0 when the module was verified here and passed,
// 1 when it was not verified here, 2 when it does not verify, 3 when it
// verifies once its broken debug info is dropped (*Message then holds the
// verifier's words, for 2 and 3).
int irgit_settle_debug_info(LLVMModuleRef MRef, char **Message) {
  Module &M = *unwrap(MRef);
  unsigned Version = debugInfoVersionFlag(M);
  if (Version == DEBUG_METADATA_VERSION) {
    std::string Out;
    raw_string_ostream OS(Out);
    bool BrokenDebugInfo = false;
    if (verifyModule(M, &OS, &BrokenDebugInfo)) {
      OS.flush();
      *Message = LLVMCreateMessage(Out.c_str());
      return 2;
    }
    if (!BrokenDebugInfo)
      return 0;
    OS.flush();
    *Message = LLVMCreateMessage(Out.c_str());
    M.getContext().diagnose(DiagnosticInfoIgnoringInvalidDebugMetadata(M));
    StripDebugInfo(M);
    return 3;
  }
  bool Stripped = StripDebugInfo(M);
  if (Stripped && Version != DEBUG_METADATA_VERSION)
    M.getContext().diagnose(DiagnosticInfoDebugMetadataVersion(M, Version));
  return 1;
}

} // extern "C"
