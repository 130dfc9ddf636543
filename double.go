package sha256x

import (
	"github.com/sha256x/sha256x/internal/plan"
	"github.com/sha256x/sha256x/internal/sched"
)

// HashManyDouble sets out[i] to SHA-256(SHA-256(msgs[i])) (SHA-256d, as
// Bitcoin hashes transactions and headers) for every i in msgs. The
// messages are read once, as HashMany reads them; the second hash runs over
// the digests in out, in place. Nothing is allocated.
//
// It panics like HashMany.
func HashManyDouble(out [][Size]byte, msgs [][]byte) {
	sched.HashManyDouble(plan.Active, out, msgs)
}
