# reduce_algo.gp, written by bench/plot.sh from docs/results/latest/c-np2.txt docs/results/latest/java-np2.txt docs/results/latest/reduce_algo-np4.txt docs/results/latest/reduce_algo_hosts-np4.txt docs/results/latest/team_create-np2.txt docs/results/latest/team_create-np3.txt docs/results/latest/team_create-np4.txt docs/results/latest/team_create-np5.txt docs/results/latest/team_create-np8.txt
# gnuplot reduce_algo.gp draws reduce_algo.png
set terminal pngcairo size 960,600 noenhanced font "sans,11"
set output "reduce_algo.png"
set title "Float sum reduce on the world team by size, per algorithm\nop=float_sum pes=4, Java (shmem4j)"
set xlabel "elements (float) per PE"
set ylabel "latency (us)"
set grid
set key outside right top
set logscale x 2
set logscale y 10
set xrange [0.7071067811865475:1482910.4003789306]
set xtics rotate by 30 right ("1" 1, "4" 4, "16" 16, "64" 64, "256" 256, "1 Ki" 1024, "4 Ki" 4096, "16 Ki" 16384, "64 Ki" 65536, "256 Ki" 262144, "1 Mi" 1048576)
$s0 << EOD
1 92.318
4 25.553
16 155.702
64 94.81
256 26.781
1024 61.345
4096 115.122
16384 176.035
65536 2454.327
262144 5376.656
1048576 10061.114
EOD
$s1 << EOD
1 50.751
4 62.074
16 16.535
64 14.007
256 78.005
1024 52.213
4096 83.889
16384 129.011
65536 1583.104
262144 1903.804
1048576 25674.837
EOD
$s2 << EOD
1 35.363
4 72.819
16 151.375
64 35.119
256 27.404
1024 34.293
4096 95.191
16384 923.647
65536 1513.272
262144 25376.438
1048576 43354.484
EOD
$s3 << EOD
1 16.319
4 8.989
16 4.853
64 5.321
256 8.457
1024 24.695
4096 73.272
16384 252.125
65536 1162.881
262144 3989.854
1048576 22956.96
EOD
$s4 << EOD
1 11.069
4 11.469
16 10.576
64 10.762
256 14.306
1024 19.574
4096 51.494
16384 161.115
65536 372.222
262144 1525.072
1048576 6720.775
EOD
$s5 << EOD
1 13.047
4 15.092
16 13.661
64 14.432
256 19.111
1024 38.453
4096 92.99
16384 431.144
65536 1462.654
262144 7296.3
1048576 27513.693
EOD
$s6 << EOD
1 36.461
4 67.766
16 41.541
64 45.127
256 94.123
1024 52.448
4096 45.22
16384 127.743
65536 2237.699
262144 1264.879
1048576 7069.324
EOD
$s7 << EOD
1 24.847
4 16.867
16 18.041
64 25.645
256 23.274
1024 74.823
4096 58.642
16384 151.101
65536 499.549
262144 2185.017
1048576 9038.725
EOD
plot $s0 using 1:2 with linespoints lc 1 dt 1 pt 7 lw 1.5 title "algo=auto", \
     $s1 using 1:2 with linespoints lc 2 dt 1 pt 7 lw 1.5 title "algo=hierarchical", \
     $s2 using 1:2 with linespoints lc 3 dt 1 pt 7 lw 1.5 title "algo=linear", \
     $s3 using 1:2 with linespoints lc 4 dt 1 pt 7 lw 1.5 title "algo=push", \
     $s4 using 1:2 with linespoints lc 5 dt 1 pt 7 lw 1.5 title "algo=rabenseifner", \
     $s5 using 1:2 with linespoints lc 6 dt 1 pt 7 lw 1.5 title "algo=recursive_doubling", \
     $s6 using 1:2 with linespoints lc 7 dt 1 pt 7 lw 1.5 title "algo=ring", \
     $s7 using 1:2 with linespoints lc 8 dt 1 pt 7 lw 1.5 title "algo=tree"
