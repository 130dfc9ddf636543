package main

import "github.com/klauspost/cpuid/v2"

func hasSHA() bool { return cpuid.CPU.Supports(cpuid.SHA, cpuid.SSSE3, cpuid.SSE4) }
