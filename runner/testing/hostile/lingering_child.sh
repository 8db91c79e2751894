# A child keeps stdout open and outlives the bot.
sleep 31.4159 &
echo '[]'
