//go:build amd64 && !purego

// The expansion of one entry into lanes with AES-NI: the AES-256 key
// schedule of the entry's digest, then the 128 counter blocks 0..127 (a
// zero IV: byte 15 is the block's index) encrypted eight at a time and
// added to (or subtracted from) the accumulated lanes, eight 16-bit lanes
// per block with PADDW/PSUBW — the same bytes as crypto/aes's CTR stream
// XORed into zeros and added lane by lane (TestLaneStreamMatchesGeneric).

#include "textflag.h"

// FOLD(a, t): a's words become w0, w0^w1, w0^w1^w2, w0^w1^w2^w3, each
// XORed with t: one step of the key schedule. Uses X4.
#define FOLD(a, t) \
	MOVO   a, X4; \
	PSLLDQ $4, X4; \
	PXOR   X4, a; \
	PSLLDQ $4, X4; \
	PXOR   X4, a; \
	PSLLDQ $4, X4; \
	PXOR   X4, a; \
	PXOR   t, a

// EVEN(rcon, off): the next even round key (X1) from the last two
// (X1 even, X3 odd): RotWord, SubWord and rcon on X3's last word.
#define EVEN(rcon, off) \
	AESKEYGENASSIST $rcon, X3, X2; \
	PSHUFD          $0xff, X2, X2; \
	FOLD(X1, X2); \
	MOVO            X1, off(R8)

// ODD(off): the next odd round key (X3): SubWord on X1's last word.
#define ODD(off) \
	AESKEYGENASSIST $0x00, X1, X2; \
	PSHUFD          $0xaa, X2, X2; \
	FOLD(X3, X2); \
	MOVO            X3, off(R8)

#define ROUND(off) \
	MOVO   off(R8), X8; \
	AESENC X8, X0; \
	AESENC X8, X1; \
	AESENC X8, X2; \
	AESENC X8, X3; \
	AESENC X8, X4; \
	AESENC X8, X5; \
	AESENC X8, X6; \
	AESENC X8, X7

#define LAST(off) \
	MOVO       off(R8), X8; \
	AESENCLAST X8, X0; \
	AESENCLAST X8, X1; \
	AESENCLAST X8, X2; \
	AESENCLAST X8, X3; \
	AESENCLAST X8, X4; \
	AESENCLAST X8, X5; \
	AESENCLAST X8, X6; \
	AESENCLAST X8, X7

// ACC(op, x, off): the eight lanes at off(DI) op= x.
#define ACC(op, x, off) \
	MOVOU off(DI), X9; \
	op    x, X9; \
	MOVOU X9, off(DI)

#define ACC8(op) \
	ACC(op, X0, 0); \
	ACC(op, X1, 16); \
	ACC(op, X2, 32); \
	ACC(op, X3, 48); \
	ACC(op, X4, 64); \
	ACC(op, X5, 80); \
	ACC(op, X6, 96); \
	ACC(op, X7, 112)

// func addKeyStream(acc *Lanes, key *[32]byte, sub bool)
TEXT ·addKeyStream(SB), 0, $256-17
	MOVQ    acc+0(FP), DI
	MOVQ    key+8(FP), SI
	MOVBQZX sub+16(FP), DX

	// The 15 round keys, in 240 bytes of the frame aligned to 16.
	LEAQ  15(SP), R8
	ANDQ  $-16, R8
	MOVOU 0(SI), X1
	MOVOU 16(SI), X3
	MOVO  X1, 0(R8)
	MOVO  X3, 16(R8)
	EVEN(0x01, 32)
	ODD(48)
	EVEN(0x02, 64)
	ODD(80)
	EVEN(0x04, 96)
	ODD(112)
	EVEN(0x08, 128)
	ODD(144)
	EVEN(0x10, 160)
	ODD(176)
	EVEN(0x20, 192)
	ODD(208)
	EVEN(0x40, 224)

	// X12: the next counter block (index in byte 15), X13: one more.
	PXOR   X12, X12
	MOVQ   $0x0100000000000000, AX
	MOVQ   AX, X13
	PSLLDQ $8, X13
	MOVQ   $16, CX

blocks:
	MOVO  X12, X0
	PADDQ X13, X12
	MOVO  X12, X1
	PADDQ X13, X12
	MOVO  X12, X2
	PADDQ X13, X12
	MOVO  X12, X3
	PADDQ X13, X12
	MOVO  X12, X4
	PADDQ X13, X12
	MOVO  X12, X5
	PADDQ X13, X12
	MOVO  X12, X6
	PADDQ X13, X12
	MOVO  X12, X7
	PADDQ X13, X12

	MOVO 0(R8), X8
	PXOR X8, X0
	PXOR X8, X1
	PXOR X8, X2
	PXOR X8, X3
	PXOR X8, X4
	PXOR X8, X5
	PXOR X8, X6
	PXOR X8, X7
	ROUND(16)
	ROUND(32)
	ROUND(48)
	ROUND(64)
	ROUND(80)
	ROUND(96)
	ROUND(112)
	ROUND(128)
	ROUND(144)
	ROUND(160)
	ROUND(176)
	ROUND(192)
	ROUND(208)
	LAST(224)

	TESTQ DX, DX
	JNZ   subtract
	ACC8(PADDW)
	JMP   next

subtract:
	ACC8(PSUBW)

next:
	ADDQ $128, DI
	DECQ CX
	JNZ  blocks
	RET
