module example.com/crash

go 1.24
