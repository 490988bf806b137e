module gopct.bench/budget

go 1.24
