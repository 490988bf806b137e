#include "textflag.h"

// func getg() uintptr
TEXT ·getg(SB),NOSPLIT,$0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET

// func stackBounds() (lo, hi uintptr)
TEXT ·stackBounds(SB),NOSPLIT,$0-16
	MOVD g, R0
	MOVD 0(R0), R1
	MOVD R1, lo+0(FP)
	MOVD 8(R0), R1
	MOVD R1, hi+8(FP)
	RET

// func stackOfG() *[2]uintptr
TEXT ·stackOfG(SB),NOSPLIT,$0-8
	MOVD g, R0
	MOVD R0, ret+0(FP)
	RET
