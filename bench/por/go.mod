module gopct.bench/por

go 1.24
