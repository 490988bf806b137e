module gopct.bench/overhead

go 1.24
