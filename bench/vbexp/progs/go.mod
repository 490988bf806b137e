module gopct.bench/vbexp

go 1.24
