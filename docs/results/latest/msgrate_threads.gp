# msgrate_threads.gp, written by bench/plot.sh from docs/results/latest/c-np2.txt docs/results/latest/java-np2.txt docs/results/latest/reduce_algo-np4.txt docs/results/latest/reduce_algo_hosts-np4.txt docs/results/latest/team_create-np2.txt docs/results/latest/team_create-np3.txt docs/results/latest/team_create-np4.txt docs/results/latest/team_create-np5.txt docs/results/latest/team_create-np8.txt
# gnuplot msgrate_threads.gp draws msgrate_threads.png
set terminal pngcairo size 960,600 noenhanced font "sans,11"
set output "msgrate_threads.png"
set title "8-byte putmem_nbi message rate of PE 0 to PE 1 by threads\nop=putmem_nbi, Java (shmem4j)"
set xlabel "threads of PE 0"
set ylabel "messages (millions/s)"
set grid
set key outside right top
set xtics 1
set offsets 0.5, 0.5, 0, 0
set yrange [0:*]
$s0 << EOD
1 18.127
2 45.282
4 141.279
EOD
$s1 << EOD
1 127.815
2 78.066
4 80.637
EOD
plot $s0 using 1:2 with linespoints lc 1 dt 1 pt 7 lw 1.5 title "ctx=private", \
     $s1 using 1:2 with linespoints lc 2 dt 1 pt 7 lw 1.5 title "ctx=shared"
