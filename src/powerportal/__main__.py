from powerportal.cli import main

main()
