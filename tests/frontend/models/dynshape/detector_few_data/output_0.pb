J ôZ‚CŽR©Cð³ÃCe¬
D‹lB‰-ÏBGæZC”C