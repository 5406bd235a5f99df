module crawlhub/bench/loadgen

go 1.21
