i=0
while [ $i -lt 100 ]; do
  sleep 31.4159 &
  i=$((i + 1))
done
echo '[]'
