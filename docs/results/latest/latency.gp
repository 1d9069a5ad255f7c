# latency.gp, written by bench/plot.sh from docs/results/latest/c-np2.txt docs/results/latest/java-np2.txt docs/results/latest/reduce_algo-np4.txt docs/results/latest/reduce_algo_hosts-np4.txt docs/results/latest/team_create-np2.txt docs/results/latest/team_create-np3.txt docs/results/latest/team_create-np4.txt docs/results/latest/team_create-np5.txt docs/results/latest/team_create-np8.txt
# gnuplot latency.gp draws latency.png
set terminal pngcairo size 960,600 noenhanced font "sans,11"
set output "latency.png"
set title "Put and get latency by message size\nsolid: Java (shmem4j), dashed: C peer (Open MPI OSHMEM)"
set xlabel "message size"
set ylabel "latency (us)"
set grid
set key outside right top
set logscale x 2
set logscale y 10
set xrange [5.65685424949238:1482910.4003789306]
set xtics rotate by 30 right ("8 B" 8, "32 B" 32, "128 B" 128, "512 B" 512, "2 KiB" 2048, "8 KiB" 8192, "32 KiB" 32768, "128 KiB" 131072, "512 KiB" 524288, "1 MiB" 1048576)
$s0 << EOD
8 3.762
32 0.285
128 2.072
512 0.811
2048 2.072
8192 7.948
32768 0.906
131072 3.099
524288 114.39
1048576 234.369
EOD
$s1 << EOD
8 0.01
32 0.015
128 0.05
512 0.053
2048 0.065
8192 0.086
32768 10.857
131072 2.953
524288 107.381
1048576 159.305
EOD
$s2 << EOD
8 0.5
32 6.726
128 2.287
512 1.009
2048 0.902
8192 0.624
32768 3.643
131072 5.48
524288 62.083
1048576 151.395
EOD
$s3 << EOD
8 0.029
32 0.029
128 0.03
512 0.034
2048 0.046
8192 0.128
32768 0.696
131072 2.682
524288 19.025
1048576 142.414
EOD
plot $s0 using 1:2 with linespoints lc 1 dt 1 pt 7 lw 1.5 title "Java put_lat", \
     $s1 using 1:2 with linespoints lc 2 dt 1 pt 7 lw 1.5 title "Java get_lat", \
     $s2 using 1:2 with linespoints lc 1 dt 2 pt 6 lw 1.5 title "C put_lat", \
     $s3 using 1:2 with linespoints lc 2 dt 2 pt 6 lw 1.5 title "C get_lat"
