// Command asmcount counts, by kind, the instructions a lane kernel issues
// for one step (one block in every lane): the straight-line code from the
// step's first label to its last, the rounds loop counted as many times as
// it runs. bench/HISTORY.md's table of instructions per step comes from it, and
// the bound beside it from the counts and the port rates given.
//
//	cd bench && go run ./asmcount                       # AVX-512 x16
//	cd bench && go run ./asmcount -func avx2X8 -file ../internal/kernel/avx2_amd64.s
//	cd bench && go run ./asmcount -func avx512X32 -loops sched=3,rounds=4   # two waves: a step is 32 lanes
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"slices"
	"strconv"
	"strings"
)

// kinds maps a mnemonic to the row it counts in.
func kind(op string, args string) string {
	switch {
	case op == "VPRORD" || op == "VPSRLD" || op == "VPSLLD" || op == "VPROLD":
		return "rotates and shifts"
	case op == "VPTERNLOGD":
		return "ternary logic (Ch, Maj, 3-way xor)"
	case op == "VPXOR" || op == "VPXORD" || op == "VPAND" || op == "VPANDN" || op == "VPANDD" || op == "VPANDND" || op == "VPOR" || op == "VPORD":
		return "two-way logic"
	case op == "VPADDD" || op == "VPADDD.BCST" || op == "VPSUBD":
		if strings.Contains(args, "(") {
			return "adds with a memory operand"
		}
		return "adds"
	case op == "VPBROADCASTD":
		return "broadcasts"
	case op == "VMOVDQA64" || op == "VMOVDQA32" || op == "VMOVDQA":
		if src, dst, _ := strings.Cut(args, ","); strings.Contains(src, "(") {
			return "vector loads"
		} else if strings.Contains(dst, "(") {
			return "vector stores"
		}
		return "register copies"
	case op == "VMOVDQU32" || op == "VMOVDQU":
		if src, _, _ := strings.Cut(args, ","); strings.Contains(src, "(") {
			return "vector loads"
		}
		return "vector stores"
	case strings.HasPrefix(op, "VPUNPCK") || op == "VSHUFI32X4" || op == "VPERM2I128":
		return "transposes"
	case op == "VPSHUFB":
		return "byte swaps"
	case strings.HasPrefix(op, "V") || strings.HasPrefix(op, "K"):
		return "other vector"
	default:
		return "scalar"
	}
}

func main() {
	file := flag.String("file", "../internal/kernel/avx512_amd64.s", "the generated assembly")
	fn := flag.String("func", "avx512X16", "the kernel's TEXT symbol, without the package dot")
	from := flag.String("from", "full", "the label the step starts at (after FUNC_)")
	to := flag.String("to", "advance", "the label the step ends before")
	loop := flag.String("loop", "rounds", "the label of the rounds loop")
	times := flag.Int("times", 3, "how often the rounds loop runs a step")
	more := flag.String("loops", "", "other loops as label=times,... (avx512X32: sched=3,rounds=4)")
	flag.Parse()
	loops := map[string]int{*loop: *times}
	for _, l := range strings.Split(*more, ",") {
		if name, t, ok := strings.Cut(l, "="); ok {
			n, err := strconv.Atoi(t)
			if err != nil {
				log.Fatalf("-loops: %v", err)
			}
			loops[name] = n
		}
	}

	f, err := os.Open(*file)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	counts := map[string]int{}
	in, inLoop, loopName := false, false, ""
	total := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if l, ok := strings.CutSuffix(line, ":"); ok && !strings.Contains(l, " ") {
			// A label starts or ends the step, or enters or leaves the loop.
			switch l {
			case *fn + "_" + *from:
				in = true
			case *fn + "_" + *to:
				in = false
			}
			if name, ok := strings.CutPrefix(l, *fn+"_"); ok && in && loops[name] > 0 {
				inLoop, loopName = true, name
			}
			continue
		}
		if !in || line == "" || strings.HasPrefix(line, "//") || strings.HasPrefix(line, "PCALIGN") {
			continue
		}
		op, args, _ := strings.Cut(line, " ")
		n := 1
		if inLoop {
			n = loops[loopName]
		}
		k := kind(op, strings.TrimSpace(args))
		counts[k] += n
		total += n
		if inLoop && op == "JNE" && strings.TrimSpace(args) == *fn+"_"+loopName {
			inLoop = false // what follows the loop's branch back runs once
		}
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	if total == 0 {
		log.Fatalf("no instructions between %s_%s and %s_%s in %s", *fn, *from, *fn, *to, *file)
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int { return counts[b] - counts[a] })
	fmt.Printf("| %s, one step (a block in every lane) | instructions |\n|---|---:|\n", *fn)
	for _, k := range keys {
		fmt.Printf("| %s | %d |\n", k, counts[k])
	}
	fmt.Printf("| **total** | **%d** |\n", total)
}
