module nethttpbench

go 1.26
